#pragma once
// What iso3dfd-studio's command line asks for (parsed by app/studio/StudioCli.h): the scenario to open
// and the automation of a run (--steps N --screenshot FILE for tests and scripts; --record PATH --frames
// N for videos and frame sequences; --benchmark SECONDS for the cost of the view; --bench-panel for the
// stages' benchmark; --lesson --screenshots DIR for the lesson's pages). Plain data: the windows' run
// functions and the headless driver read it.
#include <QString>
#include <QStringList>

#include "app/export/VideoEncoder.h"
#include "app/studio/RecordedPictures.h"
#include "core/Scenario.h"
#include "core/VolumeView.h"
#include "render/SliceView.h"

namespace iso {

struct StudioOptions {
  Scenario scenario;            // after the file or preset and every override
  QString scenarioFile;         // the scenario file given, if any ...
  bool scenarioEdited = false;  // ... and changed by the options (--stage, --size, ...)
  long steps = -1;              // pause at this step (< 0: run on)
  QString screenshot;           // with steps: save the view there after that step, then quit
  bool screenshotWindow = false;  // ... the whole window (docks and status bar) instead of the view
  QString record;               // a video (.mp4/.mkv/.mov) or a folder of PNG frames: record, then quit
  long recordFrames = 0;        // with record: frames to write
  int recordEvery = 4;          // with record: time steps between frames (frame i shows step every·i)
  int recordFps = 30;
  QString videoPreset = QString::fromStdString(VideoOptions{}.preset);  // --video-preset: x264's
  PictureMaker recordPictures = PictureMaker::Auto;  // --record-pictures
  PictureMaker viewFrames = PictureMaker::Auto;      // --view-frames
  // The screenshot's or the recording's picture: its size (empty: the view's) and what it shows.
  ImageOptions picture;
  double benchmarkSeconds = 0;  // > 0: measure headless and windowed throughput, print, quit
  int stepsPerFrame = 4;
  int viewFps = 0;  // --view-fps: the main view's frame-rate cap (0: the pane's own rule)
  bool stepsPerFrameGiven = false;  // --steps-per-frame was given (the compare view's default is auto)
  bool hostSlicePath = false;   // --slice-path host: the triple buffer's host copies, not the mapped GL buffers
  bool startPaused = false;
  QSize viewSize;               // --view-size: the main window sized so that its view has this size (empty: as saved)
  int viewMode = 0;  // an index of viewModes()
  VolumeSettings volume;  // the volume view's quality and content (--volume-context, --volume-plane, --image-scale)
  int stagesTab = -1;  // --stages-window: the stage explorer alone on this StageExplorer::Tab (< 0: no)
  QStringList compareStages;  // --compare: 2 to 4 "stage" or "stage@device", side by side in lockstep
  bool dragCamera = false;    // --drag: with --compare, orbit viewport 1's camera with synthetic mouse drags
  bool compareDifference = false;  // --difference: with --compare, every viewport but the reference shows |u - u_ref|
  bool benchPanel = false;    // --bench-panel: the benchmark panel alone (steps: per stage)
  QStringList benchStages;    // --stages: the stages it times (empty: every stage available)
  int benchSize = 0;          // --size N: a cube N³ (0: the scenario's grid)
  QString benchJson;          // --json: the results as iso3dfd-bench/1
  QStringList benchLoad;      // --load: results shown next to the run (iso3dfd bench --json files)
  bool lesson = false;        // --lesson: the lesson window (steps: each Run page's, default kLessonRunSteps)
  QString lessonFrom;         // --from: the stage whose step it starts at ("" from the beginning)
  QString lessonScreenshots;  // --screenshots: go through every page, saving each as a PNG there
  QString lessonHandout;      // --handout: ... and write the summary's PDF handout there
  // Enough for the default scenario's wavelet to leave its source at any size: the Run pages show a wave.
  static constexpr long kLessonRunSteps = 150;

  // The run ends by itself (a screenshot, a recording, results or a measurement), so a failure ends the
  // program with status 1 instead of waiting for a user.
  bool automated() const {
    return !screenshot.isEmpty() || !record.isEmpty() || !benchJson.isEmpty() || benchmarkSeconds > 0.0 ||
           !lessonScreenshots.isEmpty() || !lessonHandout.isEmpty();
  }
};

}  // namespace iso
