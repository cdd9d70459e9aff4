// terminal_client: an MCP host in a terminal. It starts a server (--stdio PROGRAM ARGS...) or
// connects to one (--http URL), calls one tool, shows each form the tool asks field by field,
// re-asks a field in plain words until what was typed meets its rules, and prints the result.
//
//   terminal_client [--version 2025-11-25|2026-07-28] [--lang en|fr] TOOL [ARGUMENTS_JSON]
//                   (--http URL | --stdio PROGRAM [ARGS...])
//
// At a field: type a value, Enter for its default (or nothing, when it has none), a choice by its
// number, title or value (several separated by commas), ":decline" or ":cancel" to answer the
// whole form so. A link the server sends (URL mode) is shown, never opened. What the server sends
// is shown without its control characters (safe()): a server is not trusted with the terminal.
#include <elicit/client/connection.hpp>
#include <elicit/client/form_answer.hpp>
#include <elicit/client/http_connection.hpp>
#include <elicit/client/mcp_client.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using message = elicit::client_message;

// The few words of this program itself, in the person's language; the words about what they
// typed come from the library's catalogue (elicit::messages).
struct ui_words {
  const char *required, *options, *by, *several, *default_is, *form_refused, *open_link, *link_done, *result, *error;
};
constexpr ui_words english{"required",
                           "choices: ",
                           "a number, a name or a value",
                           "; several separated by commas",
                           "Enter keeps: ",
                           "This form cannot be shown, so it is declined:",
                           "Open this link yourself (it is not opened for you):",
                           "When you are done there, type y (done), n (decline) or c (cancel): ",
                           "Result:",
                           "The tool failed:"};
constexpr ui_words french{"obligatoire",
                          "choix : ",
                          "un numéro, un nom ou une valeur",
                          " ; plusieurs séparés par des virgules",
                          "Entrée garde : ",
                          "Ce formulaire ne peut pas être montré ; il est refusé :",
                          "Ouvrez ce lien vous-même (il n'est pas ouvert pour vous) :",
                          "Quand c'est fait, tapez o (fait), n (refuser) ou a (annuler) : ",
                          "Résultat :",
                          "L'outil a échoué :"};

// Text from the server, as the terminal may show it: a control character (an escape sequence
// would move the cursor, retitle the window or rewrite what was shown), a C1 control, a byte that
// is not UTF-8, an invisible or direction-changing character, each shown as `?`. A new line
// stays only where the text may span lines (a message, a result), not in a title or a choice,
// where it could forge a line of this program's own.
// One UTF-8 sequence of 2 to 4 bytes as its lead byte says: continuation bytes, no overlong
// form, no surrogate, nothing past U+10FFFF.
bool well_formed(std::string_view seq) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(seq[k]); };
  for (std::size_t k = 1; k < seq.size(); ++k)
    if ((b(k) & 0xC0) != 0x80) return false;
  if (seq.size() == 3) return !(b(0) == 0xE0 && b(1) < 0xA0) && !(b(0) == 0xED && b(1) >= 0xA0);
  if (seq.size() == 4) return !(b(0) == 0xF0 && b(1) < 0x90) && !(b(0) == 0xF4 && b(1) >= 0x90);
  return true;
}

std::string safe(std::string_view text, bool lines = false) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 1 : c > 0xF4 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > text.size() || !well_formed(text.substr(i, n))) {
      out += '?';
      ++i;
      continue;
    }
    std::uint32_t cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (std::size_t k = 1; k < n; ++k) cp = cp << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    const bool hidden = (cp < 0x20 && !(lines && cp == '\n')) || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C ||
                        (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
                        (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF;
    if (hidden) out += '?';
    else out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

struct person {
  const ui_words& ui;
  const elicit::messages& words;

  // One line typed; the end of input reads as ":cancel".
  static std::string line() {
    std::string typed;
    if (!std::getline(std::cin, typed)) return ":cancel";
    return typed;
  }

  // A choice typed by its number in the list shown: its value; anything else as typed.
  static std::string numbered(const elicit::field_info& f, const std::string& typed) {
    const auto options = f.options();
    if (options.empty()) return typed;
    std::string out;
    std::size_t at = 0;
    while (at <= typed.size()) {
      const std::size_t comma = std::min(typed.find(',', at), typed.size());
      std::string one = typed.substr(at, comma - at);
      while (!one.empty() && one.front() == ' ') one.erase(0, 1);
      while (!one.empty() && one.back() == ' ') one.pop_back();
      const bool digits = !one.empty() && one.size() < 6 && one.find_first_not_of("0123456789") == std::string::npos;
      if (digits && std::stoul(one) >= 1 && std::stoul(one) <= options.size()) one = options[std::stoul(one) - 1].value;
      out += (out.empty() ? "" : ",") + one;
      at = comma + 1;
    }
    return out;
  }

  void show(const elicit::field_info& f, const elicit::form_answer& answer) const {
    std::cout << "\n" << safe(f.label()) << (f.required() ? std::string(" (") + ui.required + ")" : "") << "\n";
    if (!f.description().empty()) std::cout << "  " << safe(f.description(), true) << "\n";
    const auto options = f.options();
    for (std::size_t i = 0; i < options.size(); ++i)
      std::cout << "  " << i + 1 << ") " << safe(options[i].title.empty() ? options[i].value : options[i].title)
                << "\n";
    if (!options.empty())
      std::cout << "  " << ui.options << ui.by << (f.type() == elicit::value_type::multi_select ? ui.several : "")
                << "\n";
    if (const auto value = answer.content().find(std::string(f.name())); value != answer.content().end())
      std::cout << "  " << ui.default_is << safe(shown(f, *value)) << "\n";
  }

  // A value as the person reads it: a choice by its title, text without quotes.
  static std::string shown(const elicit::field_info& f, const nlohmann::json& value) {
    if (value.is_array()) {
      std::string out;
      for (const nlohmann::json& item : value) out += (out.empty() ? "" : ", ") + shown(f, item);
      return out;
    }
    if (!value.is_string()) return value.dump();
    for (const elicit::option_view& o : f.options())
      if (o.value == value.get_ref<const std::string&>() && !o.title.empty()) return std::string(o.title);
    return value.get<std::string>();
  }

  // A form, field by field: each re-asked in the catalogue's words until it meets its rules.
  message fill(const elicit::received_form& form) const {
    elicit::form_answer answer(form, {.decode = {.words = &words}});
    for (const elicit::field_info& f : form.fields()) {
      show(f, answer);
      for (;;) {
        std::cout << "> " << std::flush;
        const std::string typed = line();
        if (typed == ":decline") return elicit::form_answer::decline();
        if (typed == ":cancel") return elicit::form_answer::cancel();
        if (typed.empty() && answer.content().contains(std::string(f.name()))) break;  // the default kept
        const elicit::violation_list said = answer.set(f.name(), numbered(f, typed));
        if (said.empty()) break;
        for (const auto& v : said) std::cout << "  ! " << safe(v.message, true) << "\n";
      }
    }
    return answer.accept();  // every field met its rules as it was typed
  }

  message answer(const message& params) const {
    std::cout << "\n== " << safe(params.value("message", ""), true) << "\n";
    if (params.value("mode", "form") == "url") {
      std::cout << ui.open_link << "\n  " << safe(params.value("url", "")) << "\n" << ui.link_done << std::flush;
      const std::string typed = line();
      if (typed == "y" || typed == "o") return {{"action", "accept"}};
      return {{"action", typed == "n" ? "decline" : "cancel"}};
    }
    const elicit::read_form_result read = elicit::read_form(params.value("requestedSchema", message::object()));
    if (!read) {
      std::cout << ui.form_refused << "\n";
      for (const auto& p : read.problems) std::cout << "  " << safe(p.pointer) << ": " << safe(p.message, true) << "\n";
      return elicit::form_answer::decline();
    }
    return fill(*read.form);
  }
};

int usage() {
  std::cerr << "usage: terminal_client [--version 2025-11-25|2026-07-28] [--lang en|fr] TOOL [ARGUMENTS_JSON]\n"
               "                       (--http URL | --stdio PROGRAM [ARGS...])\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string version = "2025-11-25", lang = "en", tool, url;
  message arguments = message::object();
  std::vector<std::string> program;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--version" && i + 1 < argc) version = argv[++i];
    else if (a == "--lang" && i + 1 < argc) lang = argv[++i];
    else if (a == "--http" && i + 1 < argc) url = argv[++i];
    else if (a == "--stdio") {
      program.assign(argv + i + 1, argv + argc);
      break;
    } else if (tool.empty()) tool = a;
    else arguments = message::parse(a, nullptr, false);
  }
  if (tool.empty() || arguments.is_discarded() || (url.empty() == program.empty())) return usage();
  const person you{lang == "fr" ? french : english,
                   lang == "fr" ? elicit::messages::french() : elicit::messages::english()};
  try {
    std::unique_ptr<elicit::client_connection> server;
    if (!url.empty()) server = std::make_unique<elicit::http_connection>(url, version);
    else server = std::make_unique<elicit::stdio_connection>(program);
    elicit::mcp_client client(*server, {.version = version, .name = "elicit-terminal-client"});
    client.start();
    const message result =
        client.call_tool(tool, arguments, [&you](const message& params) { return you.answer(params); });
    std::cout << "\n" << (result.value("isError", false) ? you.ui.error : you.ui.result) << "\n";
    for (const message& part : result.value("content", message::array()))
      if (part.value("type", "") == "text") std::cout << safe(part.value("text", ""), true) << "\n";
    return result.value("isError", false) ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "terminal_client: " << safe(e.what(), true) << "\n";
    return 1;
  }
}
