// Redaction (see redact.h). Two tables say what a secret looks like: kSecretOptions, the options
// whose value is one (by program where the option means something else elsewhere), and
// kSecretWords, the words that make a key or an HTTP header name secret. One pass over the
// arguments applies the options; every other argument goes through the patterns a secret takes
// inside a word (redact_text): an HTTP header, key=value pairs, openssl's "pass:", a URL's password.
// An argument holding spaces (`sh -c "…"`, a connection string) is a command line of its own.
#include "model/redact.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace provio::model {
namespace {

constexpr std::string_view kSecretWords[] = {
    "password", "passwd",     "passphrase", "secret",      "token",       "apikey",    "api_key",
    "api-key",  "access_key", "access-key", "private_key", "private-key", "credential"};
// HTTP headers that carry credentials without a secret word in their name.
constexpr std::string_view kSecretHeaders[] = {"authorization", "cookie"};

enum class Form : std::uint8_t {
  kValue,            // "--opt value" or "--opt=value": the value is a secret
  kCredential,       // "user:password": the password is
  kAttached,         // "-pSECRET"; "-p" alone prompts, and the next argument is no secret
  kValueOrAttached,  // "-p SECRET" or "-pSECRET"
};

struct SecretOption {
  std::string_view programs;  // space-separated basenames; empty: any program
  std::string_view option;
  Form form;
};

constexpr SecretOption kSecretOptions[] = {
    // curl, wget and most tools with a login
    {"", "-u", Form::kCredential},
    {"", "--user", Form::kCredential},
    {"", "--proxy-user", Form::kCredential},
    {"", "-U", Form::kCredential},
    {"", "--oauth2-bearer", Form::kValue},  // curl
    {"", "--pass", Form::kValue},
    {"", "--cookie", Form::kValue},  // curl: a cookie string (or a file name, redacted too)
    {"curl", "-b", Form::kValue},
    {"openssl", "-k", Form::kValue},  // enc: the passphrase itself
    {"mysql mysqldump mysqladmin mysqlimport mysqlshow mysqlcheck mariadb mariadb-dump", "-p",
     Form::kAttached},
    {"sshpass", "-p", Form::kValueOrAttached},
};

// The form "--password value": any option whose name holds a secret word.
constexpr SecretOption kSecretWordOption = {"", "", Form::kValue};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool contains_any(const std::string& lowered, const std::string_view* begin, const std::string_view* end) {
  return std::any_of(begin, end, [&](std::string_view w) { return lowered.find(w) != std::string::npos; });
}

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

bool url_end(char c) {
  return c == '/' || c == '?' || c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'';
}

// Where a secret embedded in a word ends: the next separator of a query string, a connection
// string or shell text.
bool value_end(char c) {
  return c == '&' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'';
}

// The URL scheme that ends at `sep` ("https" in "x=https://h"), lower-cased.
std::string scheme_before(std::string_view text, std::size_t sep) {
  std::size_t begin = sep;
  while (begin > 0 && std::isalpha(static_cast<unsigned char>(text[begin - 1]))) --begin;
  return lower(text.substr(begin, sep - begin));
}

// [begin, end) of the password of the URL whose "://" is at `sep`, or begin == end if none. In
// http(s) URLs a user name alone is a token (`https://ghp_…@github.com/…`: how Git hosts and CI
// systems pass them); elsewhere it is a login name (`ssh://git@host`) and stays.
std::pair<std::size_t, std::size_t> url_password(std::string_view text, std::size_t sep) {
  std::size_t auth = sep + 3;
  std::size_t stop = auth;
  while (stop < text.size() && !url_end(text[stop])) ++stop;
  std::size_t at = text.substr(auth, stop - auth).rfind('@');
  if (at == std::string_view::npos) return {0, 0};
  std::size_t colon = text.substr(auth, at).find(':');
  if (colon != std::string_view::npos) return {auth + colon + 1, auth + at};
  std::string scheme = scheme_before(text, sep);
  if (at > 0 && (scheme == "http" || scheme == "https")) return {auth, auth + at};
  return {0, 0};
}

// [begin, end) of the value after the separator at `sep` (':' or '=') when the name before it is
// secret by `is_secret`, or begin == end. The name is the run of name characters before `sep`;
// the value of a word that is `name=value` runs to the end of the word (`whole_word`), an
// embedded one (a query string, shell text) to the next separator.
template <typename IsSecret>
std::pair<std::size_t, std::size_t> named_value(std::string_view text, std::size_t sep, bool whole_word,
                                                IsSecret is_secret) {
  std::size_t begin = sep;
  while (begin > 0 && name_char(text[begin - 1])) --begin;
  if (begin == sep || (begin > 0 && (text[begin - 1] == '/' || text[begin - 1] == '@'))) return {0, 0};
  if (!is_secret(text.substr(begin, sep - begin))) return {0, 0};
  std::size_t v = sep + 1;
  if (text[sep] == ':') {  // a header: "Authorization: Bearer …" up to the end of its quote
    while (v < text.size() && (text[v] == ' ' || text[v] == '\t')) ++v;
    std::size_t end = text.find_first_of("\"'\n", v);
    return {v, end == std::string_view::npos ? text.size() : end};
  }
  if (begin == 0 && whole_word) return {v, text.size()};
  std::size_t end = v;
  while (end < text.size() && !value_end(text[end])) ++end;
  return {v, end};
}

// `text` with every [begin, end) that `find(text, at)` returns for each `sep` character replaced.
template <typename Find>
std::string replace_each(std::string_view text, char sep, Find find) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t at = text.find(sep); at != std::string_view::npos; at = text.find(sep, at + 1)) {
    if (at < copied) continue;
    auto [begin, end] = find(text, at);
    if (begin == end) continue;
    out.append(text.substr(copied, begin - copied));
    out += kRedacted;
    copied = end;
  }
  out.append(text.substr(copied));
  return out;
}

bool secret_header(std::string_view name, const Config& c) {
  std::string n = lower(name);
  return contains_any(n, std::begin(kSecretHeaders), std::end(kSecretHeaders)) || secret_key(name, c);
}

// The secrets inside one word (`word`) or a line of shell text.
std::string redact_text(std::string_view text, bool word, const Config& c) {
  std::string s = replace_each(text, ':', [&](std::string_view t, std::size_t at) {
    return named_value(t, at, word, [&](std::string_view name) { return secret_header(name, c); });
  });
  s = replace_each(s, '=', [&](std::string_view t, std::size_t at) {
    return named_value(t, at, word, [&](std::string_view name) { return secret_key(name, c); });
  });
  // openssl's password sources: "pass:SECRET" (env:, file:, fd: name where it is, and stay)
  if (s.compare(0, 5, "pass:") == 0 && s.size() > 5) s = "pass:" + std::string(kRedacted);
  return redact_urls(s, c);
}

std::string_view basename(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool lists(std::string_view programs, std::string_view name) {
  for (std::size_t b = 0; b < programs.size();) {
    std::size_t e = std::min(programs.find(' ', b), programs.size());
    if (programs.substr(b, e - b) == name) return true;
    b = e + 1;
  }
  return false;
}

bool known_program(std::string_view name) {
  return std::any_of(std::begin(kSecretOptions), std::end(kSecretOptions),
                     [&](const SecretOption& o) { return !o.programs.empty() && lists(o.programs, name); });
}

// The table's entry for `arg` in `program`, with the value glued to it ("--opt=v", "-pv") in
// `value`, or empty.
const SecretOption* secret_option(std::string_view arg, std::string_view program, std::string_view& value) {
  for (const SecretOption& o : kSecretOptions) {
    if (!o.programs.empty() && !lists(o.programs, program)) continue;
    if (arg.compare(0, o.option.size(), o.option) != 0) continue;
    std::string_view rest = arg.substr(o.option.size());
    bool glued = o.form == Form::kAttached || o.form == Form::kValueOrAttached;
    if (rest.empty() || rest[0] == '=' || glued) {
      value = !rest.empty() && rest[0] == '=' && !glued ? rest.substr(1) : rest;
      return &o;
    }
  }
  return nullptr;
}

void append_value(std::string& out, std::string_view value, Form form) {
  std::size_t colon = value.find(':');
  if (form != Form::kCredential) {
    out += kRedacted;
  } else if (colon == std::string_view::npos) {
    out.append(value);
  } else {
    out.append(value.substr(0, colon + 1));
    out += kRedacted;
  }
}

std::vector<std::string> redact_args(const std::vector<std::string_view>& args, const Config& c);

// An argument with spaces in it, as shell text: its secrets, then its words as arguments.
std::string redact_shell_text(std::string_view arg, const Config& c) {
  std::string text = redact_text(arg, false, c);
  std::vector<std::string_view> words, gaps;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t word = text.find_first_not_of(" \t\n", at);
    gaps.push_back(std::string_view(text).substr(at, std::min(word, text.size()) - at));
    if (word == std::string::npos) break;
    at = std::min(text.find_first_of(" \t\n", word), text.size());
    words.push_back(std::string_view(text).substr(word, at - word));
  }
  std::vector<std::string> redacted = redact_args(words, c);
  std::string out;
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    out.append(gaps[k]);
    if (k < redacted.size()) out += redacted[k];
  }
  return out;
}

std::vector<std::string> redact_args(const std::vector<std::string_view>& args, const Config& c) {
  std::vector<std::string> out;
  out.reserve(args.size());
  const SecretOption* pending = nullptr;  // the previous argument's value is this option's
  std::string_view program;
  bool after_dash_c = false;  // the previous argument was "-c": this one is shell text
  for (std::string_view arg : args) {
    std::string& r = out.emplace_back();
    if (!c.redact) {
      r = arg;
      continue;
    }
    bool shell_text = after_dash_c;
    after_dash_c = arg == "-c";
    if (pending) {
      append_value(r, arg, pending->form);
      pending = nullptr;
      continue;
    }
    if (known_program(basename(arg))) program = basename(arg);
    std::string_view value;
    std::size_t eq = arg.find('=');
    if (const SecretOption* o = secret_option(arg, program, value)) {
      if (value.empty()) {
        if (o->form != Form::kAttached) pending = o;
        r = arg;
      } else {
        r = arg.substr(0, arg.size() - value.size());
        append_value(r, value, o->form);
      }
    } else if (arg.size() > 1 && arg[0] == '-' && std::all_of(arg.begin(), arg.end(), name_char) &&
               secret_key(arg, c)) {
      pending = &kSecretWordOption;
      r = arg;
    } else if (shell_text || (arg.find_first_of(" \t\n") != std::string_view::npos &&
                              !(eq != std::string_view::npos && secret_key(arg.substr(0, eq), c)))) {
      // A shell's command, or words with spaces that are no "--password=with spaces" value.
      r = redact_shell_text(arg, c);
    } else {
      r = redact_text(arg, true, c);
    }
  }
  return out;
}

}  // namespace

bool secret_key(std::string_view key, const Config& c) {
  if (!c.redact) return false;
  std::string k = lower(key);
  auto in_key = [&](std::string_view word) {
    return !word.empty() && k.find(lower(word)) != std::string::npos;
  };
  if (!std::any_of(std::begin(kSecretWords), std::end(kSecretWords), in_key) &&
      !std::any_of(c.redact_words.begin(), c.redact_words.end(), in_key))
    return false;
  // "--password-file PATH", "TOKEN_FILE=PATH" name where the secret is kept: the path is no secret.
  std::string_view name = k;
  if (name.size() < 4 || name.substr(name.size() - 4) != "file") return true;
  name.remove_suffix(4);
  if (!name.empty() && (name.back() == '-' || name.back() == '_' || name.back() == '.'))
    name.remove_suffix(1);
  auto ends_with = [&](std::string_view word) {
    std::string w = lower(word);
    return !w.empty() && name.size() >= w.size() && name.substr(name.size() - w.size()) == w;
  };
  return !std::any_of(std::begin(kSecretWords), std::end(kSecretWords), ends_with) &&
         !std::any_of(c.redact_words.begin(), c.redact_words.end(), ends_with);
}

std::string redact_urls(std::string_view text, const Config& c) {
  if (!c.redact) return std::string(text);
  return replace_each(text, ':',
                      [](std::string_view t, std::size_t at) -> std::pair<std::size_t, std::size_t> {
                        if (t.compare(at, 3, "://") != 0) return {0, 0};
                        return url_password(t, at);
                      });
}

std::string redact_command_line(const std::vector<std::string_view>& args, const Config& c) {
  std::string out;
  for (const std::string& a : redact_args(args, c)) {
    if (!out.empty()) out += ' ';
    out += a;
  }
  return out;
}

bool secret_value(std::string_view key, std::string_view value, const Config& c) {
  return secret_key(key, c) || redact_urls(value, c) != value;
}

}  // namespace provio::model
