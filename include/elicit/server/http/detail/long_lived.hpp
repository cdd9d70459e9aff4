// The handler of an operation that may stay pending for as long as a person takes to answer (a
// wait for a socket to be readable, a timer), its operation allocated at its own size.
// Machinery of <elicit/server/http/server.hpp>.
#pragma once

#include <boost/asio/bind_allocator.hpp>

#include <cstddef>
#include <memory>
#include <utility>

namespace elicit::detail::http {

// An allocator that is not std::allocator: Asio replaces std::allocator, a handler's default,
// with its recycling allocator, which hands an operation a block cached from a larger one (a
// write's) and keeps that much for as long as the operation waits: about 500 bytes a waiting
// question, measured.
template <class T>
struct own_size_allocator {
  using value_type = T;
  own_size_allocator() noexcept = default;
  template <class U>
  explicit own_size_allocator(const own_size_allocator<U>& /*other*/) noexcept {}
  [[nodiscard]] T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
  friend bool operator==(const own_size_allocator& /*a*/, const own_size_allocator& /*b*/) noexcept { return true; }
};

template <class Handler>
auto long_lived(Handler handler) {
  return boost::asio::bind_allocator(own_size_allocator<void>(), std::move(handler));
}

}  // namespace elicit::detail::http
