// Redaction of command lines and workflow values (model/redact.h), and its two settings.
#include "model/redact.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace provio::model {
namespace {

std::string line(const std::vector<std::string_view>& args, const Config& c = Config()) {
  return redact_command_line(args, c);
}

TEST(Redact, SecretArgumentsInEveryForm) {
  EXPECT_EQ(line({"db", "--password=hunter2", "--user=bob"}), "db --password=*** --user=bob");
  EXPECT_EQ(line({"db", "--token", "abc", "next"}), "db --token *** next");
  EXPECT_EQ(line({"run", "API_KEY=abc", "DB_PASSWD=x", "-Secret=y"}),
            "run API_KEY=*** DB_PASSWD=*** -Secret=***");
  EXPECT_EQ(line({"x", "--password"}), "x --password");  // nothing follows: nothing to hide
  EXPECT_EQ(line({"sort", "-o", "out.csv", "in.csv"}), "sort -o out.csv in.csv");
}

TEST(Redact, UrlPasswords) {
  EXPECT_EQ(line({"get", "https://alice:hunter4@example.org/data?x=1"}),
            "get https://alice:***@example.org/data?x=1");
  EXPECT_EQ(line({"git", "clone", "ssh://git@host/repo"}), "git clone ssh://git@host/repo");
  EXPECT_EQ(line({"--src=s3://k:s@b/o"}), "--src=s3://k:***@b/o");
  EXPECT_EQ(line({"a://x:y@h b://p:q@h"}), "a://x:***@h b://p:***@h");
  // A token as the user name of an http(s) URL; a login name elsewhere stays.
  EXPECT_EQ(line({"git", "clone", "https://ghp_abc123@github.example/x.git"}),
            "git clone https://***@github.example/x.git");
  EXPECT_EQ(line({"--remote=HTTP://tok@h/"}), "--remote=HTTP://***@h/");
  EXPECT_EQ(line({"scp", "sftp://bob@h/f"}), "scp sftp://bob@h/f");
}

TEST(Redact, UserPasswordOptions) {
  EXPECT_EQ(line({"curl", "-u", "bob:hunter2", "https://h/"}), "curl -u bob:*** https://h/");
  EXPECT_EQ(line({"wget", "--user=bob:pw", "x"}), "wget --user=bob:*** x");
  EXPECT_EQ(line({"curl", "--proxy-user", "p:q"}), "curl --proxy-user p:***");
  EXPECT_EQ(line({"sort", "-u", "in.csv"}), "sort -u in.csv");  // no colon: nothing to hide
}

TEST(Redact, WorkflowValues) {
  Config c;
  EXPECT_TRUE(secret_value("db_password", "x", c));
  EXPECT_TRUE(secret_value("source", "https://u:p@host/x", c));
  EXPECT_FALSE(secret_value("learning_rate", "0.1", c));
  EXPECT_FALSE(secret_value("source", "https://host/x", c));
}

TEST(Redact, ExtraWordsAndOff) {
  Config c;
  c.redact_words = {"session"};
  EXPECT_EQ(line({"--session-id=abc"}, c), "--session-id=***");
  c.redact = false;
  EXPECT_EQ(line({"--password=hunter2", "https://a:b@h/"}, c), "--password=hunter2 https://a:b@h/");
  EXPECT_FALSE(secret_value("password", "x", c));
}

TEST(Redact, Settings) {
  auto env = [](const char* name) -> const char* {
    std::string n = name;
    return n == "PROVIO_REDACT" ? " cookie , session " : n == "PROVIO_SHARE" ? "group" : nullptr;
  };
  std::vector<std::string> warnings;
  Config c = parse_config("", env, [&](const std::string& w) { warnings.push_back(w); });
  EXPECT_EQ(c.redact_words, (std::vector<std::string>{"cookie", "session"}));
  EXPECT_TRUE(c.redact && c.share_group);
  c = parse_config(
      "SHARE=world\nREDACT=off\n", [](const char*) -> const char* { return nullptr; },
      [&](const std::string& w) { warnings.push_back(w); });
  EXPECT_FALSE(c.redact || c.share_group);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("SHARE='world': expected user or group"), std::string::npos) << warnings[0];
}

}  // namespace
}  // namespace provio::model
