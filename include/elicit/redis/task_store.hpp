// A task_store on Redis: the tasks of the tasks extension (SEP-2663) shared by every instance of a
// server, so that tasks/get, tasks/update and tasks/cancel are answered by whichever instance
// receives them, and a task waiting for a person survives the instance that created it. CMake
// target elicit::redis (elicit::server's tasks plus hiredis).
//
//   elicit::redis_task_store tasks(elicit::redis_options::from_url(url, "shipping:"));
//   elicit::dispatcher_options o;
//   o.tasks.store = &tasks;
//
// A record is one Redis string, "VERSION\n" and its JSON, under PREFIX "task:" ID, that Redis
// forgets when its ttlMs has passed; PREFIX "tasks" is a sorted set of the ids by when they
// expire, which bounds how many there are. Creating a task and changing one are each one Lua
// script, so that two instances never both change the same version (the second is told to read
// again). When Redis cannot answer, every call throws task_store_unavailable: the task request
// fails with an error, and no task is reported done that was not.
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/redis/detail/redis_pool.hpp>
#include <elicit/redis/options.hpp>
#include <elicit/server/task_record.hpp>
#include <elicit/server/task_store.hpp>

#include <hiredis/hiredis.h>

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace elicit {

class redis_task_store final : public task_store {
 public:
  // Connects to nothing yet. `capacity`: at most that many tasks at once on this Redis and
  // prefix, every instance counted. Throws std::invalid_argument as redis_options' checks say
  // (an empty or non-printable prefix, ...).
  explicit redis_task_store(redis_options options, std::size_t capacity = 100'000)
      : pool_(std::move(options), "elicit::redis_task_store"), capacity_(capacity) {}

  bool create(task_record& record) override {
    record.version = 1;
    const std::string key = key_of(record.id), index = pool_.options().prefix + "tasks";
    const std::string value = stored(record);
    const std::string ttl = number(std::max<std::int64_t>(record.ttl_ms, 1)), now = number(detail::task_clock_ms());
    const std::string capacity = number(static_cast<std::int64_t>(capacity_));
    // KEYS: the record, the index. ARGV: the record, its ttl, now, the capacity, the id.
    static constexpr std::string_view script = R"(
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) + tonumber(ARGV[2]), ARGV[5])
return 1)";
    const std::array<std::string_view, 10> args{"EVAL", script, "2", key, index, value, ttl, now, capacity, record.id};
    return pool_.run<task_store_unavailable>(args, [this](const redisReply& r) { return integer(r) == 1; });
  }

  std::optional<task_record> find(const std::string& id) override {
    const std::string key = key_of(id);
    const std::array<std::string_view, 2> args{"GET", key};
    return pool_.run<task_store_unavailable>(args, [this](const redisReply& r) -> std::optional<task_record> {
      if (r.type == REDIS_REPLY_NIL) return std::nullopt;
      if (r.type != REDIS_REPLY_STRING) throw unexpected("GET");
      const std::string_view text(r.str, r.len);
      const std::size_t line = text.find('\n');
      if (line == std::string_view::npos) throw unexpected("GET");
      const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text.substr(line + 1), nullptr, false);
      std::optional<task_record> record = task_record::from_json(j);
      if (!record) throw unexpected("GET");
      return record;
    });
  }

  bool replace(task_record& record) override {
    const std::string key = key_of(record.id);
    const std::string expected = number(static_cast<std::int64_t>(record.version));
    ++record.version;
    const std::string value = stored(record);
    // KEYS: the record. ARGV: the version it must have, the new record.
    static constexpr std::string_view script = R"(
local now = redis.call('GET', KEYS[1])
if not now then return 0 end
if string.match(now, '^(%d+)\n') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1)";
    const std::array<std::string_view, 6> args{"EVAL", script, "1", key, expected, value};
    const bool done = pool_.run<task_store_unavailable>(args, [this](const redisReply& r) { return integer(r) == 1; });
    if (!done) --record.version;
    return done;
  }

  // One PING. Throws task_store_unavailable when Redis does not answer.
  void ping() {
    const std::array<std::string_view, 1> args{"PING"};
    pool_.run<task_store_unavailable>(args, [](const redisReply&) { return true; });
  }

  [[nodiscard]] const redis_options& options() const noexcept { return pool_.options(); }

 private:
  [[nodiscard]] std::string key_of(std::string_view id) const {
    return pool_.options().prefix + "task:" + std::string(id);
  }
  [[nodiscard]] static std::string stored(const task_record& record) {
    return number(static_cast<std::int64_t>(record.version)) + "\n" + record.to_json().dump();
  }
  [[nodiscard]] static std::string number(std::int64_t n) {
    std::array<char, 24> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), n).ptr;
    return std::string(text.data(), end);
  }
  [[nodiscard]] task_store_unavailable unexpected(std::string_view command) const {
    return task_store_unavailable(
        detail::message(pool_.where(), ": an answer to ", command, " this store did not write"));
  }
  [[nodiscard]] long long integer(const redisReply& r) const {
    if (r.type != REDIS_REPLY_INTEGER) throw unexpected("EVAL");
    return r.integer;
  }

  detail::redis_pool pool_;
  std::size_t capacity_;
};

}  // namespace elicit
