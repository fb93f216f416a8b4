#pragma once
// The wavefield's slices drawn with OpenGL 3.3 core: the three orthogonal planes through the slice
// point in a perspective 3D view, or one plane at a time in 2D, colour-mapped over a symmetric range,
// with an optional velocity overlay and the decorations around them (render/Decorations.h); or, in the
// volume view, the image of the whole field that the slices carry (SliceSet::image, ray-marched by the
// solver with the camera of volumeCamera) under the same 3D decorations. It needs
// only a current OpenGL context, a QOpenGLContext on any surface (a window, a QOffscreenSurface, an EGL
// pbuffer), not a widget: SliceView shows it in a window, and a program without one draws pictures
// of it with renderImage.
//
// What to show is set without GL; initialize, drawFrame, renderImage, mapBuffers and release need the
// context current, the same context every time from initialize to release. GUI thread (any one thread).
//
// Axes: x (n1) and y (n2) horizontal, z (n3) depth pointing down; (x, y, z) is right-handed.
// 2D planes: XY with x right and y down (seen from above), XZ with x right and z down, YZ with y right
// and z down. See SliceGeometry.h.
#include <array>
#include <functional>
#include <memory>
#include <optional>

#include <QImage>
#include <QString>
#include <QStringList>

#include "core/SlicePicture.h"
#include "render/Colormap.h"
#include "render/Decorations.h"
#include "render/FrameTarget.h"
#include "render/GainControl.h"
#include "render/GridCamera.h"
#include "render/ImageFramebuffer.h"
#include "render/MappedUploads.h"
#include "render/OverlayLayer.h"
#include "render/SliceQuads.h"
#include "render/SliceTextures.h"
#include "render/VolumeImageLayer.h"

class QOpenGLContext;
class QOpenGLShaderProgram;

namespace iso {

class SliceRenderer {
 public:
  enum class Mode { Orthogonal3D, PlaneXY, PlaneXZ, PlaneYZ, Volume };
  static bool is3D(Mode mode) { return mode == Mode::Orthogonal3D || mode == Mode::Volume; }

  SliceRenderer();
  ~SliceRenderer();  // call release() first, with the context current: the GL objects go with it

  // ---- What to show (no GL) ----
  // New wavefield planes (shared, not copied; uploaded at the next frame); nullptr clears. An
  // inconsistent set (sizes, slice point) is refused: false, the frames say why, the last set stays.
  bool setSlices(std::shared_ptr<const SliceSet> slices);
  const std::shared_ptr<const SliceSet>& slices() const { return slices_; }
  const SliceGeometry& geometry() const { return geometry_; }  // of slices()
  // Velocity planes (m/s) through the same point, for the optional semi-transparent overlay; drawn only
  // while they match the wavefield's grid and slice point. An inconsistent set is dropped (a warning).
  void setVelocitySlices(std::shared_ptr<const SliceSet> velocity);
  void setVelocityOverlay(bool on, float opacity);  // opacity in [0, 1], else clamped (a warning)
  void setMode(Mode mode) { mode_ = mode; }
  Mode mode() const { return mode_; }
  bool setColormap(const QString& name);  // false (and a warning) for an unknown name
  // The colours span [0, clip] instead of [-clip, clip]: for a magnitude, e.g. a difference |u - u_ref|.
  void setMagnitudeRange(bool on) { magnitudeRange_ = on; }
  const QString& colormap() const { return colormapName_; }
  // The colour range's rule and the manual range (GainControl); clip() is the range in use.
  void setGainMode(GainMode mode) { gain_.setMode(mode); }
  bool setClip(float clip);  // false (and a warning) unless positive and finite
  float clip() const { return gain_.clip(); }
  const GainControl& gain() const { return gain_; }
  Decorations& decorations() { return decorations_; }
  const Decorations& decorations() const { return decorations_; }
  GridCamera& camera() { return camera_; }
  const GridCamera& camera() const { return camera_; }

  // ---- OpenGL (the context current) ----
  // Programs, textures and buffers. False when the context is not OpenGL 3.3 core or later or a step
  // fails; problem() says why.
  bool initialize(QOpenGLContext& context);
  void release();  // everything initialize made, and the mapped buffers (MappedUploads::release)
  bool ready() const { return ready_; }
  const QString& problem() const { return problem_; }  // "" while it can draw
  const QString& glInfo() const { return glInfo_; }    // "OpenGL 4.5 (Core Profile) Mesa … · llvmpipe …"
  // Draws a frame into the bound framebuffer; on a GL failure, problem() says why (the frame is then
  // the plain background).
  void drawFrame(const FrameTarget& target);
  // The frame drawn into a framebuffer object of options.size (ImageFramebuffer), with `samples` per
  // pixel (the window's anti-aliasing). A null image and `error` set when the options are out of range
  // or GL fails.
  QImage renderImage(const ImageOptions& options, int samples, QString& error);
  // The same picture read back a picture late, for a stream of them (ImageFramebuffer::start, collect):
  // "" or what failed.
  QString startImage(const ImageOptions& options, int samples);
  QString collectImage(const std::function<void(const QImage& image)>& use);
  // What a picture for `options` is made of where the solver's device makes it instead of OpenGL
  // (core/SlicePicture.h): the 3D view's camera, range and colours, its slices, and the layers over them:
  // the 3D lines as the slices hide them (drawn by OpenGL, at the picture's size, only when they change:
  // the camera, the slice point, the marks), then the overlay's panels, painted as for a picture. The 3D
  // slice view only, at scale 1 or more; nullopt and `error` otherwise. `makeCurrent` makes the context
  // current ("" or what failed), called only when the lines must be drawn again: a recording's pictures
  // then cost the GUI thread no OpenGL at all.
  struct PictureParts {
    SlicePicture picture;
    std::shared_ptr<const SliceSet> slices, velocity;  // velocity: only where it tints
    std::vector<PictureLayer> layers;
  };
  std::optional<PictureParts> pictureParts(const ImageOptions& options, QString& error,
                                           const std::function<QString()>& makeCurrent);
  // The same for a window's frame (`target.onScreen`: its screen-only notice and the mouse's hint
  // included). Its lines and panels are kept apart from the pictures', so that a window and a recording
  // of another size do not make each other's layers again.
  std::optional<PictureParts> windowPictureParts(const FrameTarget& target, QString& error,
                                                 const std::function<QString()>& makeCurrent);
  // Mapped pixel buffers for the wavefield's planes (MappedUploads::map): a set given to setSlices whose
  // planes lie in one is uploaded from it, and held until the GL has read it.
  std::optional<MappedUploads::Mapping> mapBuffers(int count, std::size_t bytes, QString& problem);
  const QString& mappedProblem() const { return uploads_.problem(); }
  // Waits for the GL to read what was uploaded from the mapped buffers and lets go of it (the context
  // current): before frames made elsewhere, which draw nothing here and so would hold it.
  void finishUploads();

  // ---- A frame's layout ----
  PlaneLayout planeLayout(const FrameTarget& target) const;  // of the 2D mode's plane (geometry())
  // What a volume image must be rendered with to fill the 3D scene of a frame for `target` under its
  // box and marks: the camera's matrix (world to clip space, core/GridWorld.h) and the scene's pixels.
  struct VolumeCamera {
    glm::mat4 worldToClip{1.0f};
    QSize pixels;
  };
  VolumeCamera volumeCamera(const FrameTarget& target) const;
  int sceneWidth(const FrameTarget& target) const { return decorations_.sceneWidth(target); }
  // Paints what a frame for `target` draws over its planes (axes and their labels, marks, colour bars,
  // HUD, the mouse's hint, messages), placed as in the last frame.
  void paintDecorations(QPainter& painter, const FrameTarget& target) const;

 private:
  QString notReadyProblem() const;  // why no picture can be drawn, "" when one can
  ImageFramebuffer::Draw pictureDraw();  // a picture's frame, drawn by drawFrame
  bool fail(const QString& problem);  // records a GL problem; returns false
  bool createGlObjects();
  bool uploadPending();
  // slices_ (planes and image), from the mapped buffer that holds it if one does; false (fail) on a GL error
  bool uploadField();
  void clear(const FrameTarget& target);
  // The 3D scene's camera for `target` (its covered top as in the frame), its viewport's pixels.
  OrbitCamera sceneCamera(const FrameTarget& target, int hudLines) const;
  QSize scenePixels(const FrameTarget& target) const;
  glm::mat4 sceneViewProjection(const FrameTarget& target) const;  // the camera's, upside down when rowsDown
  // The slices of `g` and the 3D lines; with `linesOnly` the lines alone, hidden where the slices are in
  // front (drawLineLayer).
  void drawSlices3D(const FrameTarget& target, const SliceGeometry& g, bool linesOnly);
  void drawVolume(const FrameTarget& target);
  void drawPlane2D(const FrameTarget& target);
  // The 3D view's slices smooth where they cross (slice.frag): every slice's textures bound, the grid's
  // shape and the eye given to the bound program.
  void setCrossings(const SliceGeometry& g);
  // The slices `planes` on `quads`; smoothed where they cross when `crossings` gives their grid (3D).
  void drawQuads(const glm::mat4& viewProjection, const std::array<int, 3>& quads, int count,
                 const std::array<SlicePlane, 3>& planes, const SliceGeometry* crossings);
  void drawOverlay(const FrameTarget& target);
  void paintOverlay(const FrameTarget& target, OverlayLayer& overlay);  // its panels, painted where they changed
  // The 3D lines of a frame for `target` over a transparent frame, hidden where the slices are in front,
  // premultiplied (drawSlices3D's lines only): "" or what failed (problem()).
  QString drawLineLayer(const FrameTarget& target);
  // What pictures made elsewhere reuse from one to the next: the overlay's panels, the line layer and
  // what it was drawn for. One for pictures, one for a window's frames.
  struct MadeElsewhere {
    OverlayLayer overlay{kOverlayPanels};  // painted, never drawn here
    std::shared_ptr<const QImage> lineLayer;  // ARGB32, premultiplied; replaced, never changed, when drawn again
    QByteArray lineLayerKey;
    std::uint64_t lineLayerGeneration = 0;
  };
  std::optional<PictureParts> partsMadeElsewhere(const FrameTarget& target, MadeElsewhere& kept, QString& error,
                                                 const std::function<QString()>& makeCurrent);
  // The line layer for frames of `target` as a layer (drawn again when its key changes); nullopt on failure.
  std::optional<PictureLayer> lineLayer(const FrameTarget& target, MadeElsewhere& kept, QString& error,
                                        const std::function<QString()>& makeCurrent);
  QByteArray lineLayerKey(const FrameTarget& target) const;
  // The overlay's parts, each painted into a panel of its own (OverlayLayer), in this order.
  enum OverlayPanel { kMarksPanel, kColourBarFramesPanel, kColourBarLabelsPanel, kHudPanel, kNoticePanel, kOverlayPanels };
  void paintMarks(QPainter& painter, const FrameTarget& target) const;    // the labels of lines and cells
  void paintNotices(QPainter& painter, const FrameTarget& target) const;  // the mouse's hint, messages
  QByteArray marksKey(const FrameTarget& target) const;                    // what paintMarks depends on
  QByteArray noticesKey(const FrameTarget& target) const;                  // what paintNotices depends on
  // What a frame shows: the slices OpenGL holds, or, while a picture is made elsewhere, the slices set.
  bool hasPicture() const { return slices_ && (madeElsewhere_ || fieldTextures_.hasData()); }
  const SliceGeometry& shownGeometry() const { return madeElsewhere_ ? geometry_ : fieldTextures_.geometry(); }
  bool velocityMatches() const;
  bool tints() const;  // the velocity tint is drawn over the slices
  float rangeLow() const { return magnitudeRange_ ? 0.0f : -gain_.clip(); }  // the colour range's low end
  QStringList hudText(const FrameTarget& target) const;  // the decorations' lines and this renderer's warnings
  // The colour bars a frame for `target` shows beside its planes; none without a picture, or while GL fails.
  struct ColourBars {
    Decorations::ColourBar field;
    std::optional<Decorations::ColourBar> velocity;
  };
  std::optional<ColourBars> colourBars(const FrameTarget& target) const;

  // OpenGL (valid between initialize and release).
  QOpenGLContext* context_ = nullptr;
  GlFunctions* gl_ = nullptr;
  bool ready_ = false;
  QString glInfo_, problem_;
  std::unique_ptr<QOpenGLShaderProgram> program_;
  SliceQuads quads_;
  SliceTextures fieldTextures_, velocityTextures_;
  VolumeImageLayer volumeImage_;
  Colormap colormapTexture_;
  OverlayLayer windowOverlay_{kOverlayPanels};  // what QPainter draws over the slices, in a window's frames
  OverlayLayer imageOverlay_{kOverlayPanels};   // the same in pictures: a recording alternates between the two
  MadeElsewhere picturesElsewhere_, windowElsewhere_;
  std::uint64_t lineLayerGenerations_ = 0;  // line layers drawn, for their generations
  bool madeElsewhere_ = false;              // during partsMadeElsewhere
  ImageFramebuffer image_;
  MappedUploads uploads_;

  // What to show.
  Mode mode_ = Mode::Orthogonal3D;
  GridCamera camera_;
  Decorations decorations_;
  QString colormapName_ = "seismic";
  bool overlayOn_ = false;
  bool magnitudeRange_ = false;
  float overlayOpacity_ = 0.35f;
  std::shared_ptr<const SliceSet> slices_, velocity_;
  SliceGeometry geometry_;  // of slices_
  bool fieldDirty_ = false, velocityDirty_ = false, colormapDirty_ = true;
  std::array<float, 2> velocityRange_{0.0f, 1.0f};
  QString dataProblem_;  // why the last slices were refused
  GainControl gain_;
};

}  // namespace iso
