// Redaction of secrets before anything reaches a provenance file (docs/security.md).
//
// Hard rule: a command line or workflow value is redacted when it is recorded, in memory, before
// any flush: provenance files are read by people and tools the secret was never meant for.
// What is redacted (docs/security.md lists the forms): the value of any key, option or HTTP header
// whose name contains a secret word (password, passwd, passphrase, secret, token, apikey, api_key,
// api-key, access_key, access-key, private_key, private-key, credential, and the words of
// PROVIO_REDACT), unless the name ends in "file" (a path, which stays); the options of
// kSecretOptions (redact.cc: curl, wget, openssl, mysql, sshpass); openssl's "pass:" sources; the
// password of a URL. An argument with spaces is read as shell text. PROVIO_REDACT=off turns
// redaction off.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/config.h"

namespace provio::model {

inline constexpr std::string_view kRedacted = "***";

// Whether `key` ("--db-password", "API_TOKEN") names a secret ("--password-file" names a path).
bool secret_key(std::string_view key, const Config& c);

// `text` with the password of every URL in it replaced by kRedacted.
std::string redact_urls(std::string_view text, const Config& c);

// The program's arguments, redacted, joined by spaces.
std::string redact_command_line(const std::vector<std::string_view>& args, const Config& c);

// Whether a workflow value recorded under `key` is a secret (then it is recorded as kRedacted).
bool secret_value(std::string_view key, std::string_view value, const Config& c);

}  // namespace provio::model
