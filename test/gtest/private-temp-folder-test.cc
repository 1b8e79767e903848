/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Every test process writes its files in a folder of its own: many tests name their files in
// the temporary folder (testing::TempDir(), std::filesystem::temp_directory_path()), and two
// processes running the suite at once (ctest's parallel jobs, the ns-3 suite next to mose-gtest,
// two users) must not share them. A GoogleTest environment makes the folder before the first
// test, points TEST_TMPDIR (GoogleTest's TempDir()) and TMPDIR (temp_directory_path()) at it,
// and removes it after the last.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace
{

/// The process's private temporary folder
class PrivateTempFolder : public ::testing::Environment
{
  public:
    void SetUp() override
    {
        const char* base = std::getenv("TMPDIR");
        std::string pattern =
            std::string(base != nullptr && base[0] != '\0' ? base : "/tmp") + "/mose-test-XXXXXX";
        if (mkdtemp(pattern.data()) == nullptr)
        {
            return; // the shared folder then, as before
        }
        m_folder = pattern;
        setenv("TEST_TMPDIR", m_folder.c_str(), 1);
        setenv("TMPDIR", m_folder.c_str(), 1);
    }

    void TearDown() override
    {
        if (!m_folder.empty())
        {
            std::error_code ignored;
            std::filesystem::remove_all(m_folder, ignored);
        }
    }

  private:
    std::string m_folder; //!< the folder (empty: none made)
};

[[maybe_unused]] ::testing::Environment* const g_privateTempFolder =
    ::testing::AddGlobalTestEnvironment(new PrivateTempFolder);

// Both ways to the temporary folder lead to this process's own, which exists and is writable
TEST(PrivateTempFolder, TempFilesGoToAFolderOfTheProcessItsOwn)
{
    const std::string gtest = ::testing::TempDir();
    const std::string std = std::filesystem::temp_directory_path().string();
    EXPECT_NE(gtest.find("/mose-test-"), std::string::npos) << gtest;
    EXPECT_EQ(std::filesystem::path(gtest).parent_path(), std::filesystem::path(std));
    EXPECT_TRUE(std::filesystem::is_directory(std));
    std::ofstream(std + "/probe") << "x";
    EXPECT_TRUE(std::filesystem::exists(std + "/probe"));
}

} // namespace
