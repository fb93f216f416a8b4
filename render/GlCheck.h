#pragma once
// The OpenGL function table the renderer uses, and the error check run after setup and uploads.
#include <QOpenGLFunctions_3_3_Core>
#include <QString>

namespace iso {

using GlFunctions = QOpenGLFunctions_3_3_Core;

// Drains glGetError. Returns "" when there was no error; otherwise a message naming `where` and every
// error code seen, which is also sent to qWarning.
QString drainGlErrors(GlFunctions* gl, const char* where);

}  // namespace iso

class QOpenGLShaderProgram;

namespace iso {

// Compiles and links a program from two shader resources (e.g. ":/shaders/slice.vert"), and a geometry
// shader's when one is named. Returns "" on success, otherwise the compile or link log (also sent to
// qWarning).
QString buildShaderProgram(QOpenGLShaderProgram& program, const QString& vertexPath, const QString& fragmentPath,
                           const QString& geometryPath = {});

}  // namespace iso
