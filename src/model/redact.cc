// Redaction (see redact.h).
#include "model/redact.h"

#include <algorithm>
#include <cctype>

namespace provio::model {
namespace {

constexpr std::string_view kSecretWords[] = {
    "password", "passwd",     "passphrase", "secret",      "token",       "apikey",    "api_key",
    "api-key",  "access_key", "access-key", "private_key", "private-key", "credential"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool url_end(char c) {
  return c == '/' || c == '?' || c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'';
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

// `user:password` after curl's and wget's --user options: the user stays, the password goes.
bool credential_option(std::string_view arg) {
  return arg == "-u" || arg == "--user" || arg == "--proxy-user" || arg == "-U";
}

void append_credential(std::string& out, std::string_view value) {
  std::size_t colon = value.find(':');
  if (colon == std::string_view::npos) {
    out.append(value);
    return;
  }
  out.append(value.substr(0, colon + 1));
  out += kRedacted;
}

}  // namespace

bool secret_key(std::string_view key, const Config& c) {
  if (!c.redact) return false;
  std::string k = lower(key);
  auto in_key = [&](std::string_view word) {
    return !word.empty() && k.find(lower(word)) != std::string::npos;
  };
  return std::any_of(std::begin(kSecretWords), std::end(kSecretWords), in_key) ||
         std::any_of(c.redact_words.begin(), c.redact_words.end(), in_key);
}

std::string redact_urls(std::string_view text, const Config& c) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t sep = text.find("://"); c.redact && sep != std::string_view::npos;
       sep = text.find("://", sep + 3)) {
    auto [begin, end] = url_password(text, sep);
    if (begin == end) continue;
    out.append(text.substr(copied, begin - copied));
    out += kRedacted;
    copied = end;
  }
  out.append(text.substr(copied));
  return out;
}

std::string redact_command_line(const std::vector<std::string_view>& args, const Config& c) {
  std::string out;
  bool value_is_secret = false;      // the previous argument was "--password"
  bool value_is_credential = false;  // the previous argument was "--user"
  for (std::string_view arg : args) {
    if (!out.empty()) out += ' ';
    std::size_t eq = arg.find('=');
    if (value_is_secret) {
      out += kRedacted;
      value_is_secret = false;
    } else if (value_is_credential) {
      append_credential(out, arg);
      value_is_credential = false;
    } else if (eq != std::string_view::npos && secret_key(arg.substr(0, eq), c)) {
      out.append(arg.substr(0, eq + 1));
      out += kRedacted;
    } else if (c.redact && eq != std::string_view::npos && credential_option(arg.substr(0, eq))) {
      out.append(arg.substr(0, eq + 1));
      append_credential(out, arg.substr(eq + 1));
    } else {
      value_is_secret = eq == std::string_view::npos && arg.size() > 1 && arg[0] == '-' && secret_key(arg, c);
      value_is_credential = c.redact && credential_option(arg);
      out += redact_urls(arg, c);
    }
  }
  return out;
}

bool secret_value(std::string_view key, std::string_view value, const Config& c) {
  return secret_key(key, c) || redact_urls(value, c) != value;
}

}  // namespace provio::model
