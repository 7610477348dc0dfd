// HTTP for the tools that talk to a SPARQL 1.1 server, through libcurl (Debian's libcurl4): one
// connection reused across requests, retries with exponential backoff, and credentials that never
// pass through the command line or the provenance.
//
// Hard rule: a request either succeeds (2xx) or returns false with one message naming the URL and
// the reason ("http://h/sparql: HTTP 500: <first line of the body>"); nothing is retried silently
// (every retry is reported through on_retry) and nothing throws.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace provio::net {

struct Request {
  std::string method = "GET";  // GET, POST, PUT, DELETE
  std::string url;
  std::string body;
  std::string content_type;  // of the body
  std::string accept;
};

struct Response {
  long status = 0;
  std::string body;
  std::string content_type;
};

// Where credentials come from: a netrc-format file ("machine HOST login USER password PW").
// Empty: $PROVIO_CREDENTIALS, else ~/.netrc when it exists. The file must not be readable by
// group or others. Basic authentication is offered only over HTTPS; over plain HTTP only digest
// (which never sends the password).
struct Auth {
  std::string netrc_file;
  // PEM certificates to trust for HTTPS instead of the system's (a centre's own CA, a test's
  // self-signed server); empty: the system's.
  std::string ca_file;
};

struct Retry {
  int attempts = 5;           // tries per request, the first included
  double first_delay = 0.25;  // seconds before the second try; doubled each time
  double max_delay = 8;
  // A server that accepted a request and then sent nothing for this long has stalled: the request
  // fails (not retried: a query the server cannot finish would only stall again). Default from
  // $PROVIO_HTTP_TIMEOUT (seconds), else 600: a big GROUP BY answers only when it is done.
  long stall_seconds = 0;
};

class Client {
 public:
  Client(Auth auth = {}, Retry retry = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Checks the credentials file (exists when named, private) and $PROVIO_HTTP_TIMEOUT. False with a
  // message otherwise.
  [[nodiscard]] bool ready(std::string& error) const;

  // Sends `r`; retries what a retry can cure (no connection, a cut answer, HTTP 502/504, and
  // 503/429 with Retry-After, waiting what the server asks up to max_delay) with backoff; fails at
  // once on any other answer. True on 2xx.
  [[nodiscard]] bool send(const Request& r, Response& out, std::string& error);

  // Called with a message before each retry ("… HTTP 503: …; retrying in 0.5 s (2/5)").
  std::function<void(const std::string&)> on_retry;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Percent-encodes every byte but the unreserved ones (RFC 3986: letters, digits, - . _ ~): a
// value in application/x-www-form-urlencoded, a name in an IRI.
std::string percent_encode(const std::string& text);

}  // namespace provio::net
