/*
 * Copyright (c) 2026 The mose authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// LlmLevelValidation::FromCsv: two maps' regime_map.csv files, run apart, compared per cell
// and policy on hand-made figures; its refusals.

#include "mose-llm-level-validation.h"
#include "mose-test-util.h"

#include "ns3/mose-error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3::mose;

namespace
{

/// a file of the test's own under the temporary folder
std::string
TempFile(const std::string& name, const std::string& text)
{
    return ns3::mose::test::TempFile("mose-validation", name, text);
}

/// the columns FromCsv() reads, for two policies (MoSE and S-Inf), and one more it ignores
const std::string HEADER = "load_per_s,interval_s,dark_s,MoSE_ttft_mean_s,MoSE_ttft_p99_s,"
                           "MoSE_kv_mean_s,MoSE_iter_mean_s,S-Inf_ttft_mean_s,S-Inf_ttft_p99_s,"
                           "S-Inf_kv_mean_s,S-Inf_iter_mean_s,verdict,margin\n";

// The packet map (no level column) and a fluid map with its cells in the other order: per cell
// and policy the relative differences of the four figures (fluid - packet) / packet, computed
// by hand; an empty figure (no iteration) is not compared; the verdicts agree in the one cell
// outside the tie band.
TEST(LlmLevelValidation, TwoFilesAreComparedPerCellAndPolicy)
{
    const std::string packet =
        TempFile("packet.csv",
                 HEADER + "25,0.1,0.01,0.010,0.020,0.008,0.025,0.010,0.020,0.008,0.024,tie,0.01\n"
                          "800,0.1,0.01,0.020,0.050,0.016,0.025,0.030,0.060,0.020,,pays,-0.05\n");
    const std::string fluid = TempFile(
        "fluid.csv",
        "level," + HEADER +
            "fluid,800,0.1,0.01,0.021,0.045,0.016,0.030,0.027,0.060,0.021,0.026,pays,-0.04\n"
            "fluid,25,0.1,0.01,0.011,0.020,0.008,0.025,0.010,0.023,0.008,0.024,tie,0.0\n");
    const LlmLevelValidation v = LlmLevelValidation::FromCsv(packet, fluid);
    const auto& rows = v.GetRows();
    ASSERT_EQ(rows.size(), 4u);
    // the reference's order: load 25 (MoSE, S-Inf), then 800
    EXPECT_EQ(rows[0].load, 25);
    EXPECT_EQ(rows[0].policy, Policy::MOSE);
    EXPECT_EQ(rows[1].policy, Policy::STATIC_INFERENCE);
    EXPECT_EQ(rows[2].load, 800);
    EXPECT_NEAR(rows[0].GetDifference(LlmLevelValidation::TTFT_MEAN), 0.1, 1e-12);
    EXPECT_NEAR(rows[1].GetDifference(LlmLevelValidation::TTFT_P99), 0.15, 1e-12);
    EXPECT_NEAR(rows[2].GetDifference(LlmLevelValidation::TTFT_P99), -0.1, 1e-12);
    EXPECT_NEAR(rows[2].GetDifference(LlmLevelValidation::ITER_MEAN), 0.2, 1e-12);
    EXPECT_NEAR(rows[3].GetDifference(LlmLevelValidation::KV_MEAN), 0.05, 1e-12);
    EXPECT_FALSE(rows[3].used[LlmLevelValidation::ITER_MEAN]); // empty in the packet file
    EXPECT_EQ(v.CountUsed(LlmLevelValidation::ITER_MEAN), 3u);
    // within 5%: 0 (25/MoSE), 0 (S-Inf), 0.2 (800/MoSE), out: 1 of 3 outside
    EXPECT_EQ(v.CountWithinBound(LlmLevelValidation::ITER_MEAN), 2u);
    EXPECT_NEAR(v.GetWorst(LlmLevelValidation::ITER_MEAN), 0.2, 1e-12);
    EXPECT_NEAR(v.GetWorst(LlmLevelValidation::TTFT_MEAN), 0.1, 1e-12);
    EXPECT_EQ(v.GetCellsOutsideTie(), 1u);
    EXPECT_EQ(v.GetCellsAgreeing(), 1u);
    EXPECT_EQ(v.GetSpeedUp(), 0.0); // no wall times in the files
    std::ostringstream out;
    v.Print(out);
    EXPECT_NE(out.str().find("fluid vs packet"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("verdicts per cell (packet / fluid): tie / tie, pays / pays"),
              std::string::npos)
        << out.str();
    EXPECT_EQ(out.str().find("speed:"), std::string::npos) << out.str();
    std::ostringstream csv;
    v.WriteCsv(csv);
    EXPECT_EQ(csv.str().rfind("load,interval_s,dark_s,seeds,policy,packet_kv_mean_s,", 0), 0u)
        << csv.str();
}

// Verdicts that differ outside the tie band are counted; a policy only one file has is left out
TEST(LlmLevelValidation, DisagreeingVerdictsAndCommonPolicies)
{
    const std::string a =
        TempFile("a.csv",
                 HEADER + "800,1,0.01,0.02,0.05,0.016,0.025,0.03,0.06,0.02,0.025,pays,-0.05\n");
    const std::string b = TempFile("b.csv",
                                   "load_per_s,interval_s,dark_s,MoSE_ttft_mean_s,MoSE_ttft_p99_s,"
                                   "MoSE_kv_mean_s,MoSE_iter_mean_s,verdict\n"
                                   "800,1,0.01,0.02,0.05,0.016,0.025,does-not-pay\n");
    const LlmLevelValidation v = LlmLevelValidation::FromCsv(a, b);
    ASSERT_EQ(v.GetRows().size(), 1u);
    EXPECT_EQ(v.GetRows()[0].policy, Policy::MOSE);
    EXPECT_EQ(v.GetCellsOutsideTie(), 1u);
    EXPECT_EQ(v.GetCellsAgreeing(), 0u);
}

// Refused, naming the file (and line): a missing file, a missing column, a cell only one file
// has, a cell twice, two levels in one file, a malformed number, no common policy
TEST(LlmLevelValidation, MalformedFilesAreNamed)
{
    const std::string good = TempFile("good.csv", HEADER + "25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n");
    auto refused = [&](const std::string& other, const std::string& what) {
        try
        {
            LlmLevelValidation::FromCsv(good, other);
            ADD_FAILURE() << "accepted: " << what;
        }
        catch (const Error& e)
        {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refused(TempFile("none", "") + ".missing", ".missing");
    refused(TempFile("nodark.csv", "load_per_s,interval_s,verdict\n25,0.1,tie\n"),
            "nodark.csv:1: no column dark_s");
    refused(TempFile("other.csv", HEADER + "800,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n"),
            "good.csv:2: the cell load 25/s, T 0.1 s, D 0.01 s is not in");
    refused(
        TempFile("twice.csv",
                 HEADER + "25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n"),
        "twice.csv:3: the cell load 25/s, T 0.1 s, D 0.01 s a second time");
    refused(TempFile("levels.csv",
                     "level," + HEADER + "fluid,25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n" +
                         "aggregate,25,1,0.01,1,1,1,1,1,1,1,1,tie,0\n"),
            "levels.csv:3: level aggregate after fluid");
    refused(TempFile("bad.csv", HEADER + "25,0.1,0.01,1,1,x,1,1,1,1,1,tie,0\n"),
            "bad.csv:2: column MoSE_kv_mean_s = \"x\"");
    refused(TempFile("nopolicy.csv", "load_per_s,interval_s,dark_s,verdict\n25,0.1,0.01,tie\n"),
            "no policy has columns in both files");
}

// The files are checked before they are compared: what is wrong is named by file, line and
// column; a byte-order mark is read through; the labels say what a row is the mean over
TEST(LlmLevelValidation, FilesAreCheckedBeforeTheyAreCompared)
{
    const std::string good = TempFile("good2.csv", HEADER + "25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n");
    auto refused = [&](const std::string& other, const std::string& what) {
        try
        {
            LlmLevelValidation::FromCsv(good, other);
            ADD_FAILURE() << "accepted: " << what;
        }
        catch (const Error& e)
        {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refused(TempFile("header-only.csv", HEADER), "header-only.csv:1: no cells, only a header");
    // the file compared with itself (or through a link) agrees everywhere: refused
    refused(good, "good2.csv are the same file: a comparison needs two maps' files");
    const std::string link = good + ".link.csv";
    std::filesystem::remove(link);
    std::filesystem::create_symlink(good, link);
    refused(link, "are the same file");
    refused(TempFile("negative.csv", HEADER + "25,0.1,0.01,1,1,-1,1,1,1,1,1,tie,0\n"),
            "negative.csv:2: column MoSE_kv_mean_s = \"-1\": a mean or P99 time >= 0 s");
    refused(TempFile("word.csv", HEADER + "25,0.1,0.01,1,1,1,1,1,1,1,1,maybe,0\n"),
            "word.csv:2: column verdict = \"maybe\": not one of pays, tie, does-not-pay or none");
    refused(
        TempFile("level-word.csv", "level," + HEADER + "Fluid,25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n"),
        "level-word.csv:2: column level = \"Fluid\": not one of packet, fluid or aggregate");
    refused(TempFile("utf16.csv", "\xFF\xFE" + HEADER), "utf16.csv:1: a UTF-16 or UTF-32 file");
    refused(TempFile("twice-named.csv", "dark_s," + HEADER), "column \"dark_s\" is named twice");
    // a file whose verdicts need two bands: tie with [-0.03, 0.01] needs a band >= 3%, pays
    // with high -0.02 one below 2%
    const std::string ci = "load_per_s,interval_s,dark_s,MoSE_kv_mean_s,MoSE_ttft_mean_s,"
                           "MoSE_ttft_p99_s,MoSE_iter_mean_s,verdict,margin_ci_low,"
                           "margin_ci_high,ci_verdict\n";
    refused(TempFile("two-bands.csv",
                     ci + "25,0.1,0.01,1,1,1,1,tie,-0.03,0.01,tie\n"
                          "800,0.1,0.01,1,1,1,1,pays,-0.05,-0.02,pays\n"),
            "two-bands.csv:3: its ci_verdict needs a tie band below 2%, and line 2's one of at "
            "least 3%");
    // two files, each of one band, the bands apart: +-3% or more against below 2%
    const std::string wide = TempFile("wide.csv", ci + "25,0.1,0.01,1,1,1,1,tie,-0.03,0.01,tie\n");
    const std::string narrow =
        TempFile("narrow.csv", ci + "25,0.1,0.01,1,1,1,1,tie,-0.05,-0.02,pays\n");
    try
    {
        LlmLevelValidation::FromCsv(wide, narrow);
        ADD_FAILURE() << "two tie bands accepted";
    }
    catch (const Error& e)
    {
        EXPECT_NE(std::string(e.what()).find("were run with different tie bands"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("[3%, inf)"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("[0%, 2%)"), std::string::npos) << e.what();
    }
    // a UTF-8 byte-order mark keeps the first column; 3 seeds per mean, said so
    const std::string bom = TempFile("bom.csv",
                                     "\xEF\xBB\xBFlevel,seeds," + HEADER +
                                         "fluid,3,25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n");
    const std::string packet =
        TempFile("packet3.csv", "seeds," + HEADER + "3,25,0.1,0.01,1,1,1,1,1,1,1,1,tie,0\n");
    const LlmLevelValidation v = LlmLevelValidation::FromCsv(packet, bom);
    std::ostringstream out;
    v.Print(out);
    EXPECT_NE(out.str().find("fluid vs packet, cell by cell, each figure the mean over 3 seeds"),
              std::string::npos)
        << out.str();
    EXPECT_EQ(out.str().find("run by run"), std::string::npos) << out.str();
    std::ostringstream csv;
    v.WriteCsv(csv);
    EXPECT_EQ(csv.str().rfind("load,interval_s,dark_s,seeds,policy,packet_kv_mean_s,", 0), 0u)
        << csv.str();
    EXPECT_NE(csv.str().find("\n25,0.1,0.01,3,MoSE,"), std::string::npos) << csv.str();
    // two files of one level are told apart by their role
    const std::string copy = good + ".copy.csv"; // the same file twice is refused (above)
    std::filesystem::copy_file(good, copy, std::filesystem::copy_options::overwrite_existing);
    const LlmLevelValidation same = LlmLevelValidation::FromCsv(good, copy);
    std::ostringstream sameOut;
    same.Print(sameOut);
    EXPECT_NE(sameOut.str().find("packet_other vs packet_reference, cell by cell, each figure "
                                 "the mean over 1 seed"),
              std::string::npos)
        << sameOut.str();
}

} // namespace
