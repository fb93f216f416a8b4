#pragma once
// The lesson's one-page handout: a PDF (Qt's QPdfWriter, A4 portrait) with the title, the device and
// grid, the staircase of the stages, and a table of the steps: what each changed (the lesson's
// takeaway), bytes per point, the learner's predicted and the measured speed-up, Mpts/s and % of the
// memory roofline. Written whole or not at all.
#include <QString>
#include <vector>

#include "app/studio/LessonPlan.h"

namespace iso {

class StaircaseChart;

struct HandoutRow {
  StaircaseEntry entry;
  QString takeaway;  // one sentence
};

struct HandoutContent {
  QString title, subtitle;  // subtitle: device, grid, date
  std::vector<HandoutRow> rows;
};

// False with `error` set when the file cannot be written (an older file is kept).
bool writeLessonHandout(const QString& path, const HandoutContent& content, const StaircaseChart& chart, QString& error);

}  // namespace iso
