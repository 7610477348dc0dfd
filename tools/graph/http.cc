// HTTP through libcurl (see http.h).
#include "graph/http.h"

#include <curl/curl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace provio::net {
namespace {

std::size_t collect(char* data, std::size_t size, std::size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

bool transient(long status) {
  return status == 408 || status == 429 || status >= 500;
}

// The first line of an error body, for the message (servers answer with HTML or plain text).
std::string first_line(const std::string& body) {
  std::string out;
  bool in_tag = false;
  for (char c : body) {
    if (c == '<') {
      in_tag = true;
    } else if (c == '>') {
      in_tag = false;
    } else if (!in_tag) {
      if (c == '\n' || c == '\r') {
        if (out.find_first_not_of(' ') != std::string::npos) break;
        out.clear();
      } else {
        out += c;
      }
    }
    if (out.size() > 200) break;
  }
  auto b = out.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : out.substr(b);
}

std::string default_netrc() {
  if (const char* e = std::getenv("PROVIO_CREDENTIALS"); e && *e) return e;
  const char* home = std::getenv("HOME");
  if (!home) return "";
  std::string p = std::string(home) + "/.netrc";
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 ? p : "";
}

}  // namespace

struct Client::Impl {
  CURL* curl = nullptr;
  std::string netrc;
  Retry retry;
  // Credentials go out only once a server asked for them (HTTP 401): libcurl probes digest
  // authentication with an empty POST, which a server that needs none answers as a real request.
  bool authenticate = false;
};

Client::Client(Auth auth, Retry retry) : impl_(std::make_unique<Impl>()) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  impl_->curl = curl_easy_init();
  impl_->netrc = auth.netrc_file.empty() ? default_netrc() : auth.netrc_file;
  impl_->retry = retry;
}

Client::~Client() {
  if (impl_->curl) curl_easy_cleanup(impl_->curl);
}

bool Client::ready(std::string& error) const {
  if (!impl_->curl) {
    error = "cannot initialise libcurl";
    return false;
  }
  if (impl_->netrc.empty()) return true;
  struct stat st;
  if (::stat(impl_->netrc.c_str(), &st) != 0) {
    error = impl_->netrc + ": cannot read credentials file";
    return false;
  }
  // As ssh does with its keys: a password others can read is no longer secret.
  if (st.st_mode & (S_IRWXG | S_IRWXO)) {
    error = impl_->netrc + ": credentials file is readable by others (chmod 600 it)";
    return false;
  }
  return true;
}

bool Client::send(const Request& r, Response& out, std::string& error) {
  CURL* c = impl_->curl;
  double delay = impl_->retry.first_delay;
  for (int attempt = 1;; ++attempt) {
    curl_easy_reset(c);
    out = Response{};
    curl_easy_setopt(c, CURLOPT_URL, r.url.c_str());
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    if (r.method == "POST" || r.method == "PUT") {
      curl_easy_setopt(c, CURLOPT_POSTFIELDS, r.body.data());
      curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    }
    curl_slist* headers = nullptr;
    if (!r.content_type.empty())
      headers = curl_slist_append(headers, ("Content-Type: " + r.content_type).c_str());
    if (!r.accept.empty()) headers = curl_slist_append(headers, ("Accept: " + r.accept).c_str());
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip per chunk
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &out.body);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    if (impl_->authenticate) {
      curl_easy_setopt(c, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_OPTIONAL));
      curl_easy_setopt(c, CURLOPT_NETRC_FILE, impl_->netrc.c_str());
      bool tls = r.url.rfind("https://", 0) == 0;
      curl_easy_setopt(c, CURLOPT_HTTPAUTH, tls ? (CURLAUTH_BASIC | CURLAUTH_DIGEST) : CURLAUTH_DIGEST);
    }
    CURLcode rc = curl_easy_perform(c);
    curl_slist_free_all(headers);
    std::string problem;
    bool retry = false;
    if (rc != CURLE_OK) {
      problem = curl_easy_strerror(rc);
      retry = rc != CURLE_UNSUPPORTED_PROTOCOL && rc != CURLE_URL_MALFORMAT && rc != CURLE_LOGIN_DENIED;
    } else {
      curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
      char* type = nullptr;
      curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
      if (type) out.content_type = type;
      if (out.status >= 200 && out.status < 300) return true;
      if (out.status == 401 && !impl_->authenticate && !impl_->netrc.empty()) {
        impl_->authenticate = true;
        --attempt;  // the same try, now with credentials
        continue;
      }
      problem = "HTTP " + std::to_string(out.status);
      std::string line = first_line(out.body);
      if (!line.empty()) problem += ": " + line;
      retry = transient(out.status);
    }
    if (!retry || attempt >= impl_->retry.attempts) {
      error = r.url + ": " + problem + (attempt > 1 ? " (after " + std::to_string(attempt) + " tries)" : "");
      return false;
    }
    if (on_retry) {
      char d[32];
      std::snprintf(d, sizeof d, "%g", delay);
      on_retry(r.url + ": " + problem + "; retrying in " + d + " s (" + std::to_string(attempt + 1) + "/" +
               std::to_string(impl_->retry.attempts) + ")");
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    delay = std::min(delay * 2, impl_->retry.max_delay);
  }
}

std::string percent_encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3 / 2);
  for (unsigned char ch : text) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~') {
      out += static_cast<char>(ch);
    } else {
      out += '%';
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
  }
  return out;
}

}  // namespace provio::net
