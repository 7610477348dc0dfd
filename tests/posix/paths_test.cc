// Names to entities: exclusions, follow / no-follow canonical names, the per-thread name cache.
#include "posix/paths.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "model/entities.h"

namespace provio::posix {
namespace {

class Paths : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/provio-paths-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    unsetenv("PROVIO_POSIX_EXCLUDE");
    load_exclusions();
  }
  void TearDown() override {
    std::string cmd = "rm -rf " + dir_;
    ASSERT_EQ(system(cmd.c_str()), 0);
    unsetenv("PROVIO_POSIX_EXCLUDE");
    load_exclusions();
  }
  std::string at(const char* name) const { return dir_ + "/" + name; }
  void touch(const char* name) const {
    int fd = open(at(name).c_str(), O_CREAT | O_WRONLY, 0644);
    ASSERT_GE(fd, 0);
    close(fd);
  }
  std::string path_of(model::EntityId id) const {
    const model::Entity* e = model::entity(id);
    return e ? std::string(e->label) : "";
  }
  std::string dir_;
};

TEST_F(Paths, DefaultExclusionsMatchWholeComponents) {
  EXPECT_TRUE(excluded("/proc"));
  EXPECT_TRUE(excluded("/proc/self/stat"));
  EXPECT_TRUE(excluded("/usr/lib/python3.11/os.py"));
  EXPECT_TRUE(excluded("/etc/passwd"));
  EXPECT_FALSE(excluded("/procfs/data"));
  EXPECT_FALSE(excluded("/usrdata/x"));
  EXPECT_FALSE(excluded(at("x")));
}

TEST_F(Paths, ExcludeVariableAddsOrReplaces) {
  setenv("PROVIO_POSIX_EXCLUDE", ("+" + dir_).c_str(), 1);
  load_exclusions();
  EXPECT_TRUE(excluded(at("x")));
  EXPECT_TRUE(excluded("/proc/1"));
  setenv("PROVIO_POSIX_EXCLUDE", dir_.c_str(), 1);
  load_exclusions();
  EXPECT_TRUE(excluded(at("x")));
  EXPECT_FALSE(excluded("/proc/1"));
  EXPECT_EQ(path_entity(AT_FDCWD, at("x").c_str(), true, model::EntityClass::kFile), model::kNoEntity);
}

TEST_F(Paths, FollowResolvesTheLinkNoFollowNamesIt) {
  touch("target");
  ASSERT_EQ(symlink("target", at("link").c_str()), 0);
  EXPECT_EQ(canonical(AT_FDCWD, at("link").c_str(), true), at("target"));
  EXPECT_EQ(canonical(AT_FDCWD, at("link").c_str(), false), at("link"));
  EXPECT_EQ(canonical(AT_FDCWD, (dir_ + "/./sub/../link").c_str(), false), at("link"));
  EXPECT_EQ(canonical(AT_FDCWD, at("not-yet").c_str(), true), at("not-yet"));
}

TEST_F(Paths, RelativeToADirectoryDescriptor) {
  int dfd = open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(dfd, 0);
  EXPECT_EQ(canonical(dfd, "a/../b", true), at("b"));
  EXPECT_EQ(canonical(dfd, "/abs/x", true), "/abs/x");
  close(dfd);
}

TEST_F(Paths, CacheIsDroppedWhenNamesChange) {
  touch("a");
  touch("b");
  ASSERT_EQ(symlink("a", at("s").c_str()), 0);
  model::EntityId first = path_entity(AT_FDCWD, at("s").c_str(), true, model::EntityClass::kFile);
  EXPECT_EQ(path_of(first), at("a"));
  ASSERT_EQ(unlink(at("s").c_str()), 0);
  ASSERT_EQ(symlink("b", at("s").c_str()), 0);
  // Not preloaded here, so tell the cache what the wrappers would have told it.
  EXPECT_EQ(path_entity(AT_FDCWD, at("s").c_str(), true, model::EntityClass::kFile), first);
  names_changed();
  EXPECT_EQ(path_of(path_entity(AT_FDCWD, at("s").c_str(), true, model::EntityClass::kFile)), at("b"));
}

// The cache answers a repeated name from its last entry: by the name's bytes and the lookup's
// kind, never by the buffer (programs reuse one buffer for every name they build).
TEST_F(Paths, LastNameIsComparedByContentAndKind) {
  touch("a1");
  touch("a2");
  touch("a10");
  ASSERT_EQ(symlink("a1", at("s").c_str()), 0);
  std::string buf = at("a1");
  auto file = [&buf](bool follow) {
    return path_entity(AT_FDCWD, buf.c_str(), follow, model::EntityClass::kFile);
  };
  model::EntityId a1 = file(true);
  EXPECT_EQ(path_of(a1), at("a1"));
  EXPECT_EQ(file(true), a1);
  buf.back() = '2';  // same buffer, same length, another name
  EXPECT_EQ(path_of(file(true)), at("a2"));
  buf = at("a10");  // a longer name sharing the last one's bytes
  EXPECT_EQ(path_of(file(true)), at("a10"));
  buf = at("s");  // followed and not followed: two entries for one name
  EXPECT_EQ(file(true), a1);
  EXPECT_EQ(path_of(file(false)), at("s"));
  EXPECT_EQ(file(true), a1);
  // A directory class is another kind of lookup too.
  EXPECT_EQ(path_entity(AT_FDCWD, dir_.c_str(), true, model::EntityClass::kDirectory),
            path_entity(AT_FDCWD, dir_.c_str(), true, model::EntityClass::kDirectory));
  EXPECT_NE(path_entity(AT_FDCWD, dir_.c_str(), true, model::EntityClass::kDirectory), model::kNoEntity);
}

TEST_F(Paths, SearchPathFindsExecutables) {
  EXPECT_EQ(search_path("/bin/sh"), "/bin/sh");
  EXPECT_FALSE(search_path("sh").empty());
  EXPECT_TRUE(search_path("no-such-program-provio").empty());
}

}  // namespace
}  // namespace provio::posix
