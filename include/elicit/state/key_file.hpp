// A key ring from a file, and its reload while serving: keys rotate by editing one file and
// telling each instance to read it again (SIGHUP, say), with no restart. CMake target
// elicit::state.
//
// The file, text, one entry a line:
//
//   # the shipping server's state keys          (a # line, and a blank one, are skipped)
//   key 2026-11 <43 characters: elicit::state_key::generate().to_text()>
//   key 2026-12 <another 43>
//   seal 2026-12
//
//   - `key ID SECRET`: a key of the ring. ID is 1 to 32 of A-Z a-z 0-9 . _ - (the ring's rule);
//     SECRET is 32 random bytes as base64url, 43 characters (state_key::to_text()), strong
//     (state_key::from_text's rule). At most 64 keys; no id twice, no secret twice.
//   - `seal ID`: the key that seals, one of the file's keys. Exactly one such line.
//   - Words are separated by spaces or tabs; a line may end in \r\n. At most 64 KiB.
//
// The file is checked whole before anything changes: a file that breaks any rule, or cannot be
// read, throws key_file_error naming the file and the line (never a secret), and the ring in
// use stays as it was. Keep it readable by the server's user only (chmod 600).
//
//   elicit::key_ring ring = elicit::read_key_file("/etc/shipping/keys").ring;    // at start
//   ...                                                                            // on SIGHUP:
//   try { log(elicit::reload_key_file(ring, "/etc/shipping/keys").summary()); }
//   catch (const elicit::key_file_error& e) { log(e.what()); }                     // old ring kept
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/state/key_ring.hpp>

#include <openssl/crypto.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace elicit {

// A key file that cannot be read or breaks a rule: what() names the file, the line and the
// rule, and never holds a secret.
class key_file_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a key file held: the ring of its keys, and for the log the ids (in the file's order), the
// id that seals, and (from reload_key_file) warnings about phases of the rotation it skipped.
struct loaded_key_file {
  key_ring ring;
  std::vector<std::string> ids;
  std::string sealing;
  std::vector<std::string> warnings;

  // One line for the log: "3 keys (2026-10, 2026-11, 2026-12), sealing with 2026-12", then any
  // warnings. Throws only std::bad_alloc.
  [[nodiscard]] std::string summary() const {
    std::string out = detail::message(ids.size(), ids.size() == 1 ? " key (" : " keys (");
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i == 0 ? "" : ", ") + ids[i];
    out += "), sealing with " + sealing;
    for (const std::string& w : warnings) out += "; warning: " + w;
    return out;
  }
};

namespace detail {

inline constexpr std::size_t max_key_file_bytes = std::size_t{64} * 1024;
inline constexpr std::size_t max_key_file_keys = 64;

// The words of a line, split at spaces and tabs.
inline std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// A word of the file, quoted for an error only when it is short and printable: a secret
// pasted in the wrong place must not reach a log.
inline std::string quoted_word(std::string_view word) {
  if (word.size() > 16 ||
      !std::all_of(word.begin(), word.end(), [](char c) { return c > 0x20 && c < 0x7f && c != '"'; }))
    return "a word";
  return message("\"", word, "\"");
}

// The text of `path`, whole, or why not. The buffer is wiped by the caller once read.
inline std::string key_file_text(const std::filesystem::path& path) {
  const auto fail = [&](std::string_view why) {
    return key_file_error(message("elicit key file ", path.string(), ": ", why));
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) throw fail(message("cannot read it: ", ec.message()));
  if (!std::filesystem::is_regular_file(status)) throw fail("not a regular file");
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw fail(message("cannot open it: ", std::strerror(errno)));
  std::string text(max_key_file_bytes + 1, '\0');
  const std::size_t n = std::fread(text.data(), 1, text.size(), file.get());
  if (std::ferror(file.get()) != 0) {
    OPENSSL_cleanse(text.data(), text.size());
    throw fail("cannot read it (an I/O error)");
  }
  if (n > max_key_file_bytes) {
    OPENSSL_cleanse(text.data(), text.size());
    throw fail("more than 64 KiB: not a key file");
  }
  text.resize(n);
  return text;
}

}  // namespace detail

// The key ring a key file's text describes (the format is at the top of this header), checked
// whole. `source` names the file in errors. Throws key_file_error for text that breaks a rule:
// the message names the line and the rule (a weak secret, an id twice, no `seal` line...),
// never a secret; std::runtime_error when OpenSSL fails; std::bad_alloc.
[[nodiscard]] inline loaded_key_file parse_key_file(std::string_view text, std::string_view source = "key file") {
  const auto fail = [&](std::size_t line, std::string_view why) {
    return key_file_error(line == 0 ? detail::message("elicit key file ", source, ": ", why)
                                    : detail::message("elicit key file ", source, " line ", line, ": ", why));
  };
  if (text.size() > detail::max_key_file_bytes) throw fail(0, "more than 64 KiB: not a key file");
  loaded_key_file out;
  std::vector<state_key> secrets;
  std::optional<std::string> sealing;
  std::size_t line_number = 0, seal_line = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto words = detail::words_of(line);
    if (words.empty() || words[0].front() == '#') continue;
    if (words[0] == "key") {
      if (words.size() != 3) throw fail(line_number, "a key line is `key ID SECRET`, three words");
      if (out.ids.size() == detail::max_key_file_keys) throw fail(line_number, "more than 64 keys");
      if (!key_ring::valid_id(words[1])) throw fail(line_number, "a key id is 1 to 32 of A-Z a-z 0-9 . _ -");
      const std::string id(words[1]);
      if (std::find(out.ids.begin(), out.ids.end(), id) != out.ids.end())
        throw fail(line_number, detail::message("the key id \"", id, "\" is there twice"));
      std::optional<state_key> secret;
      try {
        secret = state_key::from_text(words[2]);
        out.ring.add(id, *secret);
      } catch (const std::invalid_argument& e) {  // the id's rule or the secret's: neither quotes the secret
        throw fail(line_number, e.what());
      }
      for (std::size_t i = 0; i < secrets.size(); ++i)
        if (CRYPTO_memcmp(secrets[i].bytes().data(), secret->bytes().data(), state_key::size) == 0)
          throw fail(line_number, detail::message("the key \"", id, "\" has the same secret as \"", out.ids[i],
                                                  "\": give each its own"));
      secrets.push_back(*secret);
      out.ids.push_back(id);
    } else if (words[0] == "seal") {
      if (words.size() != 2) throw fail(line_number, "a seal line is `seal ID`, two words");
      if (sealing) throw fail(line_number, detail::message("a second seal line (the first is line ", seal_line, ")"));
      if (!key_ring::valid_id(words[1])) throw fail(line_number, "seal names no valid key id");
      sealing = std::string(words[1]);
      seal_line = line_number;
    } else {
      throw fail(line_number, detail::message("unknown entry ", detail::quoted_word(words[0]),
                                              ": a line is `key ID SECRET`, `seal ID`, or a # comment"));
    }
  }
  if (out.ids.empty()) throw fail(0, "no key in it");
  if (!sealing) throw fail(0, "no `seal ID` line: which key seals?");
  if (!out.ring.contains(*sealing))
    throw fail(seal_line, detail::message("seal names \"", *sealing, "\", which is not a key of the file"));
  out.ring.seal_with(*sealing);
  out.sealing = std::move(*sealing);
  return out;
}

// The key ring of the file at `path`, read and checked whole. Throws key_file_error when it
// cannot be read (missing, not a regular file, no permission, over 64 KiB) or breaks a rule of
// the format, std::runtime_error when OpenSSL fails, std::bad_alloc.
[[nodiscard]] inline loaded_key_file read_key_file(const std::filesystem::path& path) {
  std::string text = detail::key_file_text(path);
  struct cleanse {
    std::string& text;
    ~cleanse() { OPENSSL_cleanse(text.data(), text.size()); }
  } wipe{text};
  return parse_key_file(text, path.string());
}

// Reads the file at `path` whole and, when it is good, makes `ring` hold exactly its keys,
// sealing with the one it names, in one swap (key_ring::replace_with): seals and opens running
// meanwhile on other threads see the old ring or the new one. Returns what it loaded, with
// warnings for a rotation that skipped a phase (a sealing key this ring did not hold, so
// instances that have not reloaded yet cannot open its states; the key that sealed until now
// dropped, so its pending states no longer open). Reloads take turns. Throws key_file_error,
// and leaves `ring` unchanged, for a file that read_key_file refuses, or that gives a key id
// this ring holds another secret (a secret changed under its id would make its pending states
// look tampered: give the new secret a new id); std::runtime_error when OpenSSL fails;
// std::bad_alloc.
inline loaded_key_file reload_key_file(key_ring& ring, const std::filesystem::path& path) {
  loaded_key_file next = read_key_file(path);
  static std::mutex reloading;  // one reload at a time: the checks below and the swap go together
  const std::lock_guard turn(reloading);
  for (const std::string& id : next.ids) {
    const auto held = ring.find(id);
    if (held && CRYPTO_memcmp(held->bytes().data(), next.ring.find(id)->bytes().data(), held->bytes().size()) != 0)
      throw key_file_error(detail::message("elicit key file ", path.string(), ": the key \"", id,
                                           "\" has another secret than the one in use; give a new secret a new id"));
  }
  const std::string sealed_until_now = ring.sealing_id();
  if (!sealed_until_now.empty()) {
    if (!ring.contains(next.sealing))
      next.warnings.push_back(detail::message(
          "it seals with \"", next.sealing,
          "\", which was not in the ring before: instances that have not reloaded yet cannot open its states "
          "(add the key first, then switch)"));
    if (std::find(next.ids.begin(), next.ids.end(), sealed_until_now) == next.ids.end())
      next.warnings.push_back(detail::message("it drops \"", sealed_until_now,
                                              "\", which sealed until now: its pending states no longer open "
                                              "(switch first, retire once the longest time to live has passed)"));
  }
  ring.replace_with(next.ring);
  return next;
}

}  // namespace elicit
