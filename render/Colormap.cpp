#include "render/Colormap.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include <QDebug>
#include <QFile>
#include <QTextStream>

namespace iso {
namespace {

// A table shipped as a resource: "r,g,b" lines (0–255), '#' comments.
ColourTable loadResourceTable(const QString& name) {
  QFile file(QString(":/colormaps/%1.csv").arg(name));
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    qWarning().noquote() << "colormap" << name << ": resource" << file.fileName() << "cannot be opened";
    return {};
  }
  ColourTable table;
  QTextStream in(&file);
  while (!in.atEnd()) {
    const QString line = in.readLine().trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    const QStringList parts = line.split(',');
    std::array<std::uint8_t, 3> rgb{};
    bool ok = parts.size() == 3;
    for (int c = 0; ok && c < 3; ++c) {
      const int v = parts[c].trimmed().toInt(&ok);
      ok = ok && v >= 0 && v <= 255;
      rgb[c] = std::uint8_t(v);
    }
    if (!ok) {
      qWarning().noquote() << "colormap" << name << ": malformed line" << line << "(expected r,g,b in 0-255)";
      return {};
    }
    table.push_back(rgb);
  }
  if (table.size() != std::size_t(Colormap::kEntries)) {
    qWarning().noquote() << "colormap" << name << "has" << table.size() << "entries, expected" << Colormap::kEntries;
    return {};
  }
  return table;
}

ColourTable buildTable(const QString& name) {
  if (name == "seismic") return seismicTable();
  if (name == "grey") return greyTable();
  return loadResourceTable(name);
}

}  // namespace

QStringList Colormap::names() { return {"seismic", "grey", "viridis", "inferno"}; }

const ColourTable* Colormap::table(const QString& name) {
  if (!names().contains(name)) return nullptr;
  static std::mutex mutex;
  static std::map<QString, ColourTable> tables;
  const std::lock_guard lock(mutex);
  auto it = tables.find(name);
  if (it == tables.end()) it = tables.emplace(name, buildTable(name)).first;
  return it->second.empty() ? nullptr : &it->second;
}

QColor Colormap::colourAt(const ColourTable& table, double t) {
  const double x = std::clamp(t, 0.0, 1.0) * double(table.size() - 1);
  const std::size_t a = std::size_t(x);
  const std::size_t b = std::min(a + 1, table.size() - 1);
  const double f = x - double(a);
  const auto mix = [&](int c) { return int(std::lround(table[a][c] + f * (double(table[b][c]) - table[a][c]))); };
  return QColor(mix(0), mix(1), mix(2));
}

bool Colormap::create(GlFunctions* gl) {
  gl->glGenTextures(1, &texture_);
  gl->glBindTexture(GL_TEXTURE_1D, texture_);
  gl->glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  gl->glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB8, kEntries, 0, GL_RGB, GL_UNSIGNED_BYTE, nullptr);
  error_ = drainGlErrors(gl, "creating the colormap texture");
  return error_.isEmpty();
}

void Colormap::destroy(GlFunctions* gl) {
  if (texture_ != 0) gl->glDeleteTextures(1, &texture_);
  texture_ = 0;
}

bool Colormap::select(GlFunctions* gl, const QString& name) {
  const ColourTable* entries = table(name);
  if (entries == nullptr) {
    error_ = QString("unknown colormap \"%1\" (known: %2)").arg(name, names().join(", "));
    return false;
  }
  gl->glBindTexture(GL_TEXTURE_1D, texture_);
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of 3-byte texels
  gl->glTexSubImage1D(GL_TEXTURE_1D, 0, 0, kEntries, GL_RGB, GL_UNSIGNED_BYTE, entries->data());
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  error_ = drainGlErrors(gl, "uploading the colormap");
  if (error_.isEmpty()) name_ = name;
  return error_.isEmpty();
}

void Colormap::bind(GlFunctions* gl, int unit) const {
  gl->glActiveTexture(GL_TEXTURE0 + GLenum(unit));
  gl->glBindTexture(GL_TEXTURE_1D, texture_);
}

}  // namespace iso
