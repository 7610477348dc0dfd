// HTTP through libcurl (see http.h).
#include "net/http.h"

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

// What a retry can cure: a server that could not be reached or whose answer was cut off, and a
// gateway that could not reach it. Anything else (bad URL, TLS verification, a refused login)
// fails the same way every time.
bool transient(CURLcode rc) {
  switch (rc) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE: return true;
    default: return false;
  }
}

// The server's own wait before a retry (RFC 9110 10.2.3): seconds, or -1 when it gave none.
double retry_after(CURL* c) {
  curl_header* h = nullptr;
  if (curl_easy_header(c, "Retry-After", 0, CURLH_HEADER, -1, &h) != CURLHE_OK) return -1;
  curl_off_t seconds = 0;  // libcurl reads both forms, seconds and an HTTP date
  if (curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &seconds) != CURLE_OK) return -1;
  return static_cast<double>(seconds);
}

// Answers a retry can cure: a gateway's (502, 504), or a server that says when to come back
// (503 Service Unavailable, 429 Too Many Requests, with Retry-After). A 500 or any other 4xx is
// the same answer next time: failing at once gives the user the server's message without a wait.
bool transient(long status, double after) {
  return status == 502 || status == 504 || ((status == 503 || status == 429) && after >= 0);
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

constexpr long kDefaultStallSeconds = 600;

// $PROVIO_HTTP_TIMEOUT in whole seconds > 0; 0 when unset, -1 when malformed.
long stall_seconds_from_env() {
  const char* e = std::getenv("PROVIO_HTTP_TIMEOUT");
  if (!e || !*e) return 0;
  char* end = nullptr;
  long s = std::strtol(e, &end, 10);
  return *end || s <= 0 ? -1 : s;
}

}  // namespace

struct Client::Impl {
  CURL* curl = nullptr;
  std::string netrc;
  std::string ca_file;
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
  impl_->ca_file = auth.ca_file;
  impl_->retry = retry;
  if (impl_->retry.stall_seconds == 0) impl_->retry.stall_seconds = stall_seconds_from_env();
  if (impl_->retry.stall_seconds == 0) impl_->retry.stall_seconds = kDefaultStallSeconds;
}

Client::~Client() {
  if (impl_->curl) curl_easy_cleanup(impl_->curl);
}

bool Client::ready(std::string& error) const {
  if (!impl_->curl) {
    error = "cannot initialise libcurl";
    return false;
  }
  if (impl_->retry.stall_seconds < 0) {
    error = "PROVIO_HTTP_TIMEOUT: expected whole seconds > 0";
    return false;
  }
  struct stat st;
  if (!impl_->ca_file.empty() && ::stat(impl_->ca_file.c_str(), &st) != 0) {
    error = impl_->ca_file + ": cannot read CA file";
    return false;
  }
  if (impl_->netrc.empty()) return true;
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
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);  // bytes/s, both ways: a stall, not a slow link
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, std::max(impl_->retry.stall_seconds, 1L));
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    if (!impl_->ca_file.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, impl_->ca_file.c_str());
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
    double wait = delay;
    if (rc != CURLE_OK) {
      problem = curl_easy_strerror(rc);
      curl_off_t connected = 0;
      curl_easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connected);
      if (rc == CURLE_OPERATION_TIMEDOUT && connected > 0)
        problem = "no answer for " + std::to_string(impl_->retry.stall_seconds) +
                  " s (the server stalled; PROVIO_HTTP_TIMEOUT sets the limit)";
      else
        retry = transient(rc);
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
      double after = retry_after(c);
      retry = transient(out.status, after);
      if (after >= 0) wait = std::min(after, impl_->retry.max_delay);
    }
    if (!retry || attempt >= impl_->retry.attempts) {
      error = r.url + ": " + problem + (attempt > 1 ? " (after " + std::to_string(attempt) + " tries)" : "");
      return false;
    }
    if (on_retry) {
      char d[32];
      std::snprintf(d, sizeof d, "%g", wait);
      on_retry(r.url + ": " + problem + "; retrying in " + d + " s (" + std::to_string(attempt + 1) + "/" +
               std::to_string(impl_->retry.attempts) + ")");
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
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
