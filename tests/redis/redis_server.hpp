// A real redis-server for the tests: started on a free loopback port with a data directory of its
// own, stopped (and the directory removed) when the object goes, however the test ends; and
// killed with the test process if that dies first (PR_SET_PDEATHSIG). stop(), start(), pause()
// (SIGSTOP: it accepts connections but answers nothing) and resume() play the failures a
// deployment meets. Needs the redis-server package.
#pragma once

#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace test_support {

class redis_server {
 public:
  // `extra`: more redis-server arguments, e.g. {"--requirepass", "..."}.
  explicit redis_server(std::vector<std::string> extra = {}) : extra_(std::move(extra)) {
    char pattern[] = "/tmp/elicit-redis-XXXXXX";
    if (mkdtemp(pattern) == nullptr) throw std::runtime_error("redis_server: mkdtemp failed");
    dir_ = pattern;
    for (int attempt = 0;; ++attempt) {  // the free port may be taken between the look and the bind
      port_ = free_port();
      try {
        start();
        return;
      } catch (const std::runtime_error&) {
        if (attempt == 2) {
          std::filesystem::remove_all(dir_);
          throw;
        }
      }
    }
  }
  ~redis_server() {
    stop();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  redis_server(const redis_server&) = delete;
  redis_server& operator=(const redis_server&) = delete;

  [[nodiscard]] int port() const noexcept { return port_; }

  // Starts it on the same port, and returns once it answers PING (at most 10 s).
  void start() {
    if (pid_ > 0) return;
    const std::string port = std::to_string(port_), log = (dir_ / "redis.log").string();
    std::vector<std::string> args{
        "redis-server", "--port", port,        "--bind", "127.0.0.1",   "--dir", dir_.string(), "--save", "",
        "--appendonly", "no",     "--logfile", log,      "--daemonize", "no"};
    args.insert(args.end(), extra_.begin(), extra_.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("redis_server: fork failed");
    if (pid == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
      if (getppid() != parent) _exit(127);
      execvp("redis-server", argv.data());
      _exit(127);  // no redis-server: the wait below reports it
    }
    pid_ = pid;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!answers()) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        throw std::runtime_error("redis_server: redis-server did not start (is the redis-server package installed?): " +
                                 log_text());
      }
      if (std::chrono::steady_clock::now() > give_up) {
        stop();
        throw std::runtime_error("redis_server: redis-server did not answer within 10 s: " + log_text());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  // Stops it (SIGTERM, then SIGKILL after 5 s) and waits for it to go.
  void stop() noexcept {
    if (pid_ <= 0) return;
    kill(pid_, SIGCONT);
    kill(pid_, SIGTERM);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > give_up) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    pid_ = -1;
  }
  void pause() const {
    if (pid_ > 0) kill(pid_, SIGSTOP);
  }
  void resume() const {
    if (pid_ > 0) kill(pid_, SIGCONT);
  }

  // A command of the test's own (TTL, PTTL...), on a connection of its own: the integer it
  // answers. Throws std::runtime_error when it gives none.
  [[nodiscard]] long long integer(const std::vector<std::string>& command) const {
    const auto c = connect();
    if (!c) throw std::runtime_error("redis_server: cannot connect");
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const std::string& a : command) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    const std::unique_ptr<redisReply, void (*)(void*)> r(
        static_cast<redisReply*>(redisCommandArgv(c.get(), static_cast<int>(argv.size()), argv.data(), lengths.data())),
        &freeReplyObject);
    if (!r || r->type != REDIS_REPLY_INTEGER) throw std::runtime_error("redis_server: no integer answer");
    return r->integer;
  }

 private:
  using context = std::unique_ptr<redisContext, void (*)(redisContext*)>;

  [[nodiscard]] context connect() const {
    context c(redisConnectWithTimeout("127.0.0.1", port_, timeval{1, 0}), &redisFree);
    if (c && c->err != 0) c.reset();
    if (c) redisSetTimeout(c.get(), timeval{2, 0});
    return c;
  }
  [[nodiscard]] bool answers() const {
    const auto c = connect();
    if (!c) return false;
    const std::unique_ptr<redisReply, void (*)(void*)> r(static_cast<redisReply*>(redisCommand(c.get(), "PING")),
                                                         &freeReplyObject);
    return r && (r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_ERROR);  // NOAUTH: up, with a password
  }
  [[nodiscard]] std::string log_text() const {
    std::ifstream in(dir_ / "redis.log");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      if (fd >= 0) close(fd);
      throw std::runtime_error("redis_server: no free port");
    }
    close(fd);
    return ntohs(address.sin_port);
  }

  std::vector<std::string> extra_;
  std::filesystem::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace test_support
