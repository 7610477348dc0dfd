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

// One row per form a tool takes a secret in (issue 29): the command line as the program got it,
// and as it is recorded. Every secret in these rows is "S3CRET", so the last check can say none
// survived.
struct Row {
  std::vector<std::string_view> args;
  std::string_view recorded;
};

const Row kRows[] = {
    // curl
    {{"curl", "-H", "Authorization: Bearer S3CRET", "https://h/"}, "curl -H Authorization: *** https://h/"},
    {{"curl", "--header", "authorization:Basic S3CRET", "u"}, "curl --header authorization:*** u"},
    {{"curl", "-HX-Api-Key: S3CRET", "u"}, "curl -HX-Api-Key: *** u"},
    {{"curl", "-H", "Cookie: sid=S3CRET", "u"}, "curl -H Cookie: *** u"},
    {{"curl", "-H", "Accept: text/plain", "u"}, "curl -H Accept: text/plain u"},
    {{"curl", "--oauth2-bearer", "S3CRET", "u"}, "curl --oauth2-bearer *** u"},
    {{"curl", "-b", "sid=S3CRET", "u"}, "curl -b *** u"},
    {{"curl", "-d", "user=bob&password=S3CRET&x=1", "u"}, "curl -d user=bob&password=***&x=1 u"},
    {{"curl", "https://h/api?access_token=S3CRET&page=2"}, "curl https://h/api?access_token=***&page=2"},
    // wget
    {{"wget", "--header=Authorization: token S3CRET", "u"}, "wget --header=Authorization: *** u"},
    {{"wget", "--http-password=S3CRET", "--http-user=bob", "u"},
     "wget --http-password=*** --http-user=bob u"},
    {{"wget", "--ftp-password", "S3CRET", "u"}, "wget --ftp-password *** u"},
    // openssl
    {{"openssl", "enc", "-aes256", "-pass", "pass:S3CRET", "-in", "f"},
     "openssl enc -aes256 -pass pass:*** -in f"},
    {{"openssl", "rsa", "-passin", "pass:S3CRET", "-passout", "env:KEYPW"},
     "openssl rsa -passin pass:*** -passout env:KEYPW"},
    {{"/usr/bin/openssl", "enc", "-k", "S3CRET"}, "/usr/bin/openssl enc -k ***"},
    {{"tool", "--pass", "S3CRET"}, "tool --pass ***"},
    {{"tool", "--pass=S3CRET"}, "tool --pass=***"},
    // a file holding the secret: its path stays
    {{"tool", "--password-file", "/home/u/.pw"}, "tool --password-file /home/u/.pw"},
    {{"tool", "--token-file=/run/tok", "TOKEN_FILE=/run/t"}, "tool --token-file=/run/tok TOKEN_FILE=/run/t"},
    // git
    {{"git", "clone", "https://oauth2:S3CRET@gitlab.example/x.git"},
     "git clone https://oauth2:***@gitlab.example/x.git"},
    {{"git", "clone", "https://S3CRET@github.example/x.git"}, "git clone https://***@github.example/x.git"},
    {{"git", "-c", "http.extraheader=AUTHORIZATION: bearer S3CRET", "fetch"},
     "git -c http.extraheader=AUTHORIZATION: *** fetch"},
    {{"git", "-c", "http.extraHeader=Private-Token: S3CRET", "fetch"},
     "git -c http.extraHeader=Private-Token: *** fetch"},
    // mysql / psql
    {{"mysql", "-u", "root", "-pS3CRET", "db"}, "mysql -u root -p*** db"},
    {{"mysqldump", "--password=S3CRET", "db"}, "mysqldump --password=*** db"},
    {{"mysql", "-p", "db"}, "mysql -p db"},  // -p alone prompts: db is no secret
    {{"env", "PGPASSWORD=S3CRET", "psql", "-h", "db"}, "env PGPASSWORD=*** psql -h db"},
    {{"psql", "host=db user=u password=S3CRET dbname=x"}, "psql host=db user=u password=*** dbname=x"},
    {{"psql", "postgresql://u:S3CRET@db/x"}, "psql postgresql://u:***@db/x"},
    // sshpass
    {{"sshpass", "-p", "S3CRET", "ssh", "host"}, "sshpass -p *** ssh host"},
    {{"sshpass", "-pS3CRET", "ssh", "host"}, "sshpass -p*** ssh host"},
    {{"sshpass", "-f", "/home/u/.pw", "ssh", "host"}, "sshpass -f /home/u/.pw ssh host"},
    // shell text: the same forms inside one argument
    {{"sh", "-c", "PGPASSWORD=S3CRET psql -h db && mysql -pS3CRET x"},
     "sh -c PGPASSWORD=*** psql -h db && mysql -p*** x"},
    {{"bash", "-c", "curl -H 'Authorization: Bearer S3CRET' u"}, "bash -c curl -H 'Authorization: ***' u"},
    {{"sh", "-c", "sshpass -p S3CRET ssh h"}, "sh -c sshpass -p *** ssh h"},
    {{"tool", "--password=two S3CRET words"}, "tool --password=***"},
    // what is no secret stays
    {{"mkdir", "-pv", "a"}, "mkdir -pv a"},
    {{"ssh", "-p", "22", "host"}, "ssh -p 22 host"},
    {{"curl", "-k", "https://h:8443/x"}, "curl -k https://h:8443/x"},
};

TEST(Redact, EveryToolForm) {
  for (const Row& row : kRows) {
    std::string got = line(row.args);
    EXPECT_EQ(got, row.recorded);
    EXPECT_EQ(got.find("S3CRET"), std::string::npos) << got;
  }
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
