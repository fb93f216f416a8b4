#include "render/VideoPlanes.h"

#include <QOpenGLFramebufferObject>
#include <QOpenGLShaderProgram>

namespace iso {

VideoPlanes::VideoPlanes() = default;
VideoPlanes::~VideoPlanes() = default;

QString VideoPlanes::sizeProblem(QSize size) {
  if (size.width() % 2 == 0 && size.height() % 2 == 0) return {};
  return QStringLiteral("a video frame of %1x%2 pixels: yuv420p needs an even width and height")
      .arg(size.width()).arg(size.height());
}

QString VideoPlanes::create(GlFunctions* gl) {
  program_ = std::make_unique<QOpenGLShaderProgram>();
  if (QString log = buildShaderProgram(*program_, ":/shaders/video_planes.vert", ":/shaders/video_planes.frag");
      !log.isEmpty()) {
    program_.reset();
    return "the video planes' shaders: " + log;
  }
  program_->bind();
  program_->setUniformValue("picture", 0);
  program_->release();
  gl->glGenVertexArrays(1, &vao_);
  return drainGlErrors(gl, "creating the video planes' pass");
}

QString VideoPlanes::convert(GlFunctions* gl, GLuint picture, QSize size) {
  if (QString problem = sizeProblem(size); !problem.isEmpty()) return problem;
  if (!program_)
    if (QString error = create(gl); !error.isEmpty()) return error;
  const QSize planes = planesSize(size);
  if (!target_ || target_->size() != planes)
    target_ = std::make_unique<QOpenGLFramebufferObject>(planes, QOpenGLFramebufferObject::NoAttachment, GL_TEXTURE_2D, GL_R8);
  if (!target_->isValid() || !target_->bind()) {
    target_.reset();
    drainGlErrors(gl, "creating the video planes' target");
    return QStringLiteral("could not create a %1x%2 target for the video planes").arg(planes.width()).arg(planes.height());
  }
  gl->glActiveTexture(GL_TEXTURE0);
  gl->glBindTexture(GL_TEXTURE_2D, picture);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  gl->glViewport(0, 0, planes.width(), planes.height());
  gl->glDisable(GL_BLEND);
  gl->glDisable(GL_DEPTH_TEST);
  gl->glDisable(GL_SCISSOR_TEST);
  program_->bind();
  program_->setUniformValue("frameSize", GLfloat(size.width()), GLfloat(size.height()));
  gl->glBindVertexArray(vao_);
  gl->glDrawArrays(GL_TRIANGLES, 0, 3);
  gl->glBindVertexArray(0);
  program_->release();
  gl->glBindTexture(GL_TEXTURE_2D, 0);
  return drainGlErrors(gl, "converting the picture to video planes");
}

void VideoPlanes::destroy(GlFunctions* gl) {
  if (vao_ != 0) gl->glDeleteVertexArrays(1, &vao_);
  vao_ = 0;
  target_.reset();
  program_.reset();
}

}  // namespace iso
