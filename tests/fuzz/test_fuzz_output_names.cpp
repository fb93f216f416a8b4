// Seeded mutation fuzzing of the names outputs are given (--dump, --traces, a screenshot's PNG, a
// recording's MP4 or frame folder): whatever the bytes of the name (no '/': each stays in a scratch
// folder of its own), the one writer (core/OutputFile) either writes exactly that file or folder, or
// refuses with FileWriteError and leaves the folder empty: no temporary file, nothing else created.
#include <set>

#include "app/export/VideoEncoder.h"
#include "core/OutputFile.h"
#include "tests/fuzz/FuzzHarness.h"

namespace iso::fuzz {
namespace {

namespace fs = std::filesystem;

std::set<std::string> namesIn(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

constexpr long kMaxVideos = 12;

TEST(Fuzz, OutputNames) {
  const std::vector<std::string> corpus = {"u.npy", "traces.csv", "shot.png", "rec.mp4", "frames", ".hidden", "a b c.json",
                                           "\xc3\xbc.vti"};
  long n = 0, videos = 0;
  fuzz<std::runtime_error>("output names", corpus, [&](std::string name) {
    for (char& c : name)
      if (c == '/' || c == '\0') c = '_';
    if (name.empty()) name = "_";  // an empty name would be the scratch folder itself
    const fs::path dir = test::scratchPath("names-" + std::to_string(n));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path target = dir / name;
    // As the studio chooses: a name without an extension is a folder of frames, .mp4 a video (the first
    // few: an encoder takes a while to open; the names after them go to plain files).
    const std::string extension = fs::path(name).extension().string();
    const int kind = extension == ".mp4" && videos < kMaxVideos ? 7 : extension.empty() ? 6 : 0;
    videos += kind == 7;
    const std::string contents = "contents of " + std::to_string(n++);
    try {
      if (kind == 7) {
        VideoOptions options;
        options.preset = "ultrafast";
        VideoEncoder video(target, 16, 16, 10, options);
        const std::vector<std::uint8_t> frame(16 * 16 * 4, 128);
        video.push(frame.data(), 16 * 4);
        video.finish();
      } else if (kind == 6) {
        OutputFolder folder(target.string());
        folder.writeFile("000000.png", contents.data(), contents.size());
        folder.commit();
      } else {
        writeWholeFile(target.string(), contents);
      }
    } catch (const std::runtime_error&) {  // FileWriteError, ExportError
      EXPECT_TRUE(namesIn(dir).empty()) << "a refused output left files: " << name;
      throw;
    }
    EXPECT_EQ(namesIn(dir), std::set<std::string>{fs::path(name).filename().string()}) << name;
    if (kind == 0) {
      EXPECT_EQ(test::readFileBytes(target.string()), contents);
    } else if (kind == 6) {
      EXPECT_EQ(test::readFileBytes((target / "000000.png").string()), contents);
    }
    return true;
  }, /*minRefused=*/0.05, /*share=*/0.25);  // most names are valid; each output is synced to disk
}

}  // namespace
}  // namespace iso::fuzz
