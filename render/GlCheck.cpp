#include "render/GlCheck.h"

#include <QDebug>
#include <QStringList>

namespace iso {
namespace {

const char* glErrorName(GLenum code) {
  switch (code) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
  }
}

}  // namespace

QString drainGlErrors(GlFunctions* gl, const char* where) {
  QStringList codes;
  // A lost context can return errors forever; a handful is enough to report.
  for (int n = 0; n < 16; ++n) {
    const GLenum code = gl->glGetError();
    if (code == GL_NO_ERROR) break;
    codes << QString("%1 (0x%2)").arg(glErrorName(code)).arg(code, 0, 16);
  }
  if (codes.isEmpty()) return {};
  const QString message = QString("OpenGL error after %1: %2").arg(where, codes.join(", "));
  qWarning().noquote() << message;
  return message;
}

}  // namespace iso

#include <QOpenGLShaderProgram>

namespace iso {

QString buildShaderProgram(QOpenGLShaderProgram& program, const QString& vertexPath, const QString& fragmentPath,
                           const QString& geometryPath) {
  QString message;
  if (!program.addShaderFromSourceFile(QOpenGLShader::Vertex, vertexPath))
    message = QString("vertex shader %1 failed to compile:\n%2").arg(vertexPath, program.log());
  else if (!geometryPath.isEmpty() && !program.addShaderFromSourceFile(QOpenGLShader::Geometry, geometryPath))
    message = QString("geometry shader %1 failed to compile:\n%2").arg(geometryPath, program.log());
  else if (!program.addShaderFromSourceFile(QOpenGLShader::Fragment, fragmentPath))
    message = QString("fragment shader %1 failed to compile:\n%2").arg(fragmentPath, program.log());
  else if (!program.link())
    message = QString("shader program %1 + %2 failed to link:\n%3").arg(vertexPath, fragmentPath, program.log());
  if (!message.isEmpty()) qWarning().noquote() << message;
  return message;
}

}  // namespace iso
