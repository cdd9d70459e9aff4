// Where a dispatcher keeps its tasks (the tasks extension, SEP-2663): one interface, and the
// store in this process's memory, the default. elicit::redis_task_store
// (<elicit/redis/task_store.hpp>) keeps them for several instances. A store holds records
// (<elicit/server/task_record.hpp>) and changes one only if nobody changed it since it was read
// (its version), so that instances sharing it never lose an answer. CMake target elicit::server.
//
//   elicit::memory_task_store tasks(100000);       // at most 100,000 tasks at once
//   elicit::dispatcher_options o;
//   o.tasks = &tasks;
#pragma once

#include <elicit/server/task_record.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace elicit {

// The store cannot be reached (Redis down): the task request fails, closed.
class task_store_unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class task_store {
 public:
  task_store() = default;
  task_store(const task_store&) = delete;
  task_store& operator=(const task_store&) = delete;
  virtual ~task_store() = default;

  // Stores a new record (version 1). False when the store is full: no new task until some end
  // and expire. Throws task_store_unavailable.
  [[nodiscard]] virtual bool create(task_record& record) = 0;
  // The record of `id` that has not expired, or nullopt. Throws task_store_unavailable.
  [[nodiscard]] virtual std::optional<task_record> find(const std::string& id) = 0;
  // Stores `record` in place of the one of its id if that one still has record.version, and then
  // bumps record.version; false when the record changed meanwhile or is gone (read it again).
  // Throws task_store_unavailable.
  [[nodiscard]] virtual bool replace(task_record& record) = 0;
};

// How a dispatcher runs tasks (dispatcher_options::tasks).
struct task_options {
  // Where the records are kept: null, the dispatcher's own memory_task_store (one process,
  // 100,000 tasks). A store given here must outlive the dispatcher.
  task_store* store = nullptr;
  // How long a task is kept from its creation (its ttlMs), whatever its status: a person has
  // that long to answer, a client that long to read the result.
  std::chrono::milliseconds time_to_live{std::chrono::hours(1)};
  // How often a client is asked to poll tasks/get (pollIntervalMs).
  std::chrono::milliseconds poll_interval{std::chrono::seconds(1)};
  // How long a step may run on the instance that took it before another instance reports the
  // task failed (the first one stopped): longer than the longest tool.
  std::chrono::milliseconds lease{std::chrono::minutes(10)};
  // The threads that run steps, made as they are needed.
  std::size_t threads = 4;
  // How often a subscriptions/listen stream reads the tasks it watches, to send a
  // notifications/tasks for each that changed (on any instance): how late a notification may be.
  std::chrono::milliseconds notify_interval{250};
  // The most tasks one subscription watches: a listen naming more is refused (-32602).
  std::size_t max_watched = 64;
  // The most a record may take as JSON (the call's params, the answers given, the result): past
  // it a call is refused, answers are refused, a result fails the task, each with its error.
  std::size_t max_record_bytes = std::size_t{256} * 1024;
};

// In this process's memory: one instance alone. Each record is kept as its JSON in MessagePack
// (about a third of the memory its JSON tree takes, so that a task waiting for a person costs
// little: docs/internals/performance.md), read back on each find. Records go when their ttlMs has
// passed (checked as they are read, and swept as new ones come). Thread-safe.
class memory_task_store final : public task_store {
 public:
  // At most `capacity` records at once.
  explicit memory_task_store(std::size_t capacity = 100'000) : capacity_(capacity) {}

  bool create(task_record& record) override {
    const std::int64_t now = detail::task_clock_ms();
    record.version = 1;
    kept k = keep(record);
    std::lock_guard lock(mutex_);
    // Full: expired records go, at most once a second (a sweep reads every record).
    if (records_.size() >= capacity_ && now - swept_ms_ >= 1000) sweep(now);
    if (records_.size() >= capacity_ || records_.contains(record.id)) return false;
    records_.emplace(record.id, std::move(k));
    return true;
  }
  std::optional<task_record> find(const std::string& id) override {
    const std::int64_t now = detail::task_clock_ms();
    std::vector<std::uint8_t> bytes;
    {
      std::lock_guard lock(mutex_);
      const auto it = records_.find(id);
      if (it == records_.end()) return std::nullopt;
      if (now >= it->second.expires_ms) {
        records_.erase(it);
        return std::nullopt;
      }
      bytes = it->second.bytes;
    }
    return task_record::from_json(nlohmann::ordered_json::from_msgpack(bytes));
  }
  bool replace(task_record& record) override {
    ++record.version;
    kept k = keep(record);
    std::lock_guard lock(mutex_);
    const auto it = records_.find(record.id);
    if (it == records_.end() || it->second.version != record.version - 1) {
      --record.version;
      return false;
    }
    it->second = std::move(k);
    return true;
  }
  // How many records it holds (the expired ones not yet swept included).
  [[nodiscard]] std::size_t size() const {
    std::lock_guard lock(mutex_);
    return records_.size();
  }

 private:
  struct kept {
    std::vector<std::uint8_t> bytes;
    std::uint64_t version;
    std::int64_t expires_ms;
  };
  static kept keep(const task_record& r) {
    std::vector<std::uint8_t> bytes = nlohmann::ordered_json::to_msgpack(r.to_json());
    bytes.shrink_to_fit();
    return {std::move(bytes), r.version, r.created_ms + r.ttl_ms};
  }
  void sweep(std::int64_t now) {
    swept_ms_ = now;
    std::erase_if(records_, [now](const auto& entry) { return now >= entry.second.expires_ms; });
  }

  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, kept> records_;
  std::int64_t swept_ms_ = 0;
};

}  // namespace elicit
