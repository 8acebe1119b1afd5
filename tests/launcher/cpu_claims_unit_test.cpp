// In-process unit test: which CPUs an oshrun job binds its PEs to beside other jobs
// (launcher/cpu_claims.hpp). choose_cpus is plain arithmetic; CpuClaim works on a directory of
// its own, with a child process holding a record as a running job would.
#include "cpu_claims.hpp"

#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

using shoal::launcher::choose_cpus;
using shoal::launcher::CpuClaim;

TEST(ChooseCpus, AloneThePesTakeTheFirstCpus) {
  EXPECT_EQ(choose_cpus({0, 1, 2, 3}, {}, 2, false), (std::vector<int>{0, 1}));
  EXPECT_EQ(choose_cpus({4, 6, 9}, {}, 3, false), (std::vector<int>{4, 6, 9}));
}

TEST(ChooseCpus, OtherJobsCpusAreSkipped) {
  EXPECT_EQ(choose_cpus({0, 1, 2, 3}, {0, 1}, 2, false), (std::vector<int>{2, 3}));
  EXPECT_EQ(choose_cpus({0, 1, 2, 3}, {1, 2}, 2, false), (std::vector<int>{0, 3}));
  // A CPU this oshrun may not use is no concern of it.
  EXPECT_EQ(choose_cpus({2, 3}, {0, 1}, 2, false), (std::vector<int>{2, 3}));
}

TEST(ChooseCpus, AutoLeavesPesThatDoNotFitUnbound) {
  EXPECT_EQ(choose_cpus({0, 1}, {0}, 2, false), (std::vector<int>{-1, -1}));
  EXPECT_EQ(choose_cpus({0, 1}, {}, 3, false), (std::vector<int>{-1, -1, -1}));
  EXPECT_EQ(choose_cpus({0, 1}, {0, 1}, 1, false), (std::vector<int>{-1}));
}

TEST(ChooseCpus, CoreBindsTheFreeCpusFirstThenRoundRobin) {
  EXPECT_EQ(choose_cpus({0, 1, 2}, {0}, 4, true), (std::vector<int>{1, 2, 0, 1}));
  EXPECT_EQ(choose_cpus({0, 1}, {}, 5, true), (std::vector<int>{0, 1, 0, 1, 0}));
  EXPECT_EQ(choose_cpus({0, 1}, {0, 1}, 2, true), (std::vector<int>{0, 1}));
}

TEST(ChooseCpus, NoCpusNoBinding) {
  EXPECT_EQ(choose_cpus({}, {}, 2, true), (std::vector<int>{-1, -1}));
  EXPECT_TRUE(choose_cpus({0}, {}, 0, true).empty());
}

namespace {

namespace fs = std::filesystem;

class CpuClaimDir : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "cpu-claims.XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string record_of(long pid) const { return dir_ + "/shoal-cpus." + std::to_string(pid); }
  static std::string read(const std::string &path) {
    std::ifstream in(path);
    std::string text;
    std::getline(in, text);
    return text;
  }

  std::string dir_;
};

}  // namespace

TEST_F(CpuClaimDir, RecordLivesWithTheClaim) {
  {
    CpuClaim claim(dir_);
    EXPECT_EQ(claim.claim({0, 1, 2}, 2, false), (std::vector<int>{0, 1}));
    EXPECT_EQ(read(record_of(::getpid())), "0,1");
  }
  EXPECT_TRUE(fs::is_empty(dir_));  // nothing left behind, no lock file either
}

TEST_F(CpuClaimDir, UnboundJobRecordsNothing) {
  CpuClaim claim(dir_);
  EXPECT_EQ(claim.claim({0, 1}, 3, false), (std::vector<int>{-1, -1, -1}));
  EXPECT_FALSE(fs::exists(record_of(::getpid())));
}

TEST_F(CpuClaimDir, LiveJobsCpusAreLeftToIt) {
  // A child records CPU 0 and holds the lock, as a running oshrun does, until told to go.
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(go[1]);
    const int fd = ::open(record_of(::getpid()).c_str(), O_WRONLY | O_CREAT, 0644);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0 || ::write(fd, "0\n", 2) != 2) ::_exit(1);
    char byte;
    (void)::read(go[0], &byte, 1);
    ::_exit(0);
  }
  ::close(go[0]);
  const std::string held = record_of(child);
  for (int i = 0; i < 500 && read(held) != "0"; ++i) ::usleep(10'000);
  ASSERT_EQ(read(held), "0");
  {
    CpuClaim claim(dir_);
    EXPECT_EQ(claim.claim({0, 1, 2}, 1, false), (std::vector<int>{1}));
    EXPECT_EQ(claim.claim({0, 1, 2}, 3, false), (std::vector<int>{-1, -1, -1}));
    EXPECT_EQ(claim.claim({0, 1, 2}, 3, true), (std::vector<int>{1, 2, 0}));
    EXPECT_TRUE(fs::exists(held));  // a live job's record stays
  }
  ::close(go[1]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // Its job is gone (the lock went with it): the CPU is free again and the record removed.
  CpuClaim claim(dir_);
  EXPECT_EQ(claim.claim({0, 1, 2}, 1, false), (std::vector<int>{0}));
  EXPECT_FALSE(fs::exists(held));
}

TEST_F(CpuClaimDir, DamagedRecordsAndOtherFilesAreHarmless) {
  std::ofstream(dir_ + "/shoal-cpus.notapid") << "0\n";
  std::ofstream(dir_ + "/unrelated") << "0\n";
  CpuClaim claim(dir_);
  EXPECT_EQ(claim.claim({0, 1}, 2, false), (std::vector<int>{0, 1}));
  EXPECT_TRUE(fs::exists(dir_ + "/shoal-cpus.notapid"));
  EXPECT_TRUE(fs::exists(dir_ + "/unrelated"));
}

TEST(CpuClaim, WithoutItsDirectoryItChoosesAlone) {
  CpuClaim claim("/nonexistent/cpu-claims");
  EXPECT_EQ(claim.claim({0, 1}, 2, false), (std::vector<int>{0, 1}));
}
