#include "app/export/VideoEncoder.h"

#include <algorithm>
#include <cerrno>
#include <thread>

#include "core/OutputFile.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace iso {
namespace {

std::string averror(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

constexpr int kIoBufferBytes = 1 << 16;

// libavformat 61 (FFmpeg 7) hands the bytes to write as const.
#if LIBAVFORMAT_VERSION_MAJOR >= 61
using AvioBytes = const std::uint8_t*;
#else
using AvioBytes = std::uint8_t*;
#endif

// RGBA to the encoder's yuv420p at the same size, with BT.709's coefficients into studio range as the
// GPU's conversion (render/VideoPlanes.h) and the stream's colour description say: only the colour planes
// are filtered (halved each way, bilinear), and slices of the frame convert on threads of their own: at
// 1080p and up one thread converts fewer frames a second than x264 encodes on a many-core host.
SwsContext* rgbaToYuvConverter(int width, int height) {
  SwsContext* c = sws_alloc_context();
  if (c == nullptr) return nullptr;
  const int threads = int(std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u));
  const bool set = av_opt_set_int(c, "srcw", width, 0) >= 0 && av_opt_set_int(c, "srch", height, 0) >= 0 &&
                   av_opt_set_int(c, "src_format", AV_PIX_FMT_RGBA, 0) >= 0 && av_opt_set_int(c, "dstw", width, 0) >= 0 &&
                   av_opt_set_int(c, "dsth", height, 0) >= 0 && av_opt_set_int(c, "dst_format", AV_PIX_FMT_YUV420P, 0) >= 0 &&
                   av_opt_set_int(c, "sws_flags", SWS_BILINEAR, 0) >= 0 && av_opt_set_int(c, "threads", threads, 0) >= 0;
  const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
  if (!set || sws_init_context(c, nullptr, nullptr) < 0 ||
      sws_setColorspaceDetails(c, bt709, /*srcRange full*/ 1, bt709, /*dstRange studio*/ 0, 0, 1 << 16, 1 << 16) < 0) {
    sws_freeContext(c);
    return nullptr;
  }
  return c;
}

}  // namespace

// The muxer writes through OutputFile (core/OutputFile.h), the one writer of every output: a temporary
// file beside the target, renamed over it once the trailer is written. Exceptions cannot cross FFmpeg's
// C callbacks: the first failure is kept and reported by the call that saw the error code.
struct VideoEncoder::Av {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  SwsContext* scaler = nullptr;
  AVFrame* frame = nullptr;
  AVFrame* rgba = nullptr;  // the frame being written, around the writer's memory (no copy)
  AVPacket* packet = nullptr;
  AVIOContext* io = nullptr;
  std::unique_ptr<OutputFile> file;
  std::string ioError;

  static int writePacket(void* opaque, AvioBytes bytes, int size) {
    Av& av = *static_cast<Av*>(opaque);
    try {
      av.file->write(bytes, std::size_t(size));
      return size;
    } catch (const FileWriteError& e) {
      if (av.ioError.empty()) av.ioError = e.what();
      return AVERROR(EIO);
    }
  }
  static std::int64_t seek(void* opaque, std::int64_t offset, int whence) {
    Av& av = *static_cast<Av*>(opaque);
    if (whence & AVSEEK_SIZE) return std::int64_t(av.file->size());
    const std::int64_t base = (whence & 3) == SEEK_CUR ? std::int64_t(av.file->position())
                              : (whence & 3) == SEEK_END ? std::int64_t(av.file->size()) : 0;
    if (base + offset < 0) return AVERROR(EINVAL);
    try {
      av.file->seek(std::uint64_t(base + offset));
      return base + offset;
    } catch (const FileWriteError& e) {
      if (av.ioError.empty()) av.ioError = e.what();
      return AVERROR(EIO);
    }
  }

  ~Av() {
    if (io) av_freep(&io->buffer);
    avio_context_free(&io);
    av_packet_free(&packet);
    av_frame_free(&frame);
    av_frame_free(&rgba);
    sws_freeContext(scaler);
    avcodec_free_context(&codec);
    avformat_free_context(format);
  }
};

VideoEncoder::VideoEncoder(const std::filesystem::path& path, int width, int height, int fps, const VideoOptions& options)
    : FrameWriter(path, width, height, options.queueFrames), fps_(fps), av_(std::make_unique<Av>()) {
  // FFmpeg logs every encode's statistics at the info level; the errors come back as exceptions.
  static const bool quiet = (av_log_set_level(AV_LOG_ERROR), true);
  (void)quiet;
  const std::string name = path.string();
  auto fail = [&](const std::string& why) { throw ExportError("cannot record " + shownPath(name) + ": " + why); };
  if (width < 2 || height < 2 || width > kMaxSide || height > kMaxSide)
    fail("the size " + std::to_string(width) + "x" + std::to_string(height) + " is out of range (2 to " +
         std::to_string(kMaxSide) + " pixels each way)");
  if (width % 2 != 0 || height % 2 != 0)
    fail("the size " + std::to_string(width) + "x" + std::to_string(height) +
         " is odd; H.264 in yuv420p needs an even width and height");
  if (fps < 1 || fps > kMaxFps) fail("the frame rate " + std::to_string(fps) + " is out of range (1 to " + std::to_string(kMaxFps) + ")");
  if (path.filename().empty() || std::filesystem::is_directory(path)) fail("the path names a folder, not a file");
  // The MP4 muxer goes back to complete the file's index once the last frame is in.
  if (const FileTarget target = inspectFileTarget(name); target.isStream())
    fail(shownPath(name) + " is " + target.description + ", and a video needs a file it can seek in");
  const AVCodec* codec = avcodec_find_encoder_by_name(options.codec.c_str());
  if (codec == nullptr || codec->type != AVMEDIA_TYPE_VIDEO) fail("unknown video encoder '" + options.codec + "'");
  const AVOutputFormat* container = av_guess_format(nullptr, name.c_str(), nullptr);
  if (container == nullptr) fail("no container format for the extension '" + shownPath(path.extension().string()) + "' (use .mp4)");

  Av& av = *av_;
  int rc = avformat_alloc_output_context2(&av.format, container, nullptr, name.c_str());
  if (rc < 0) fail(averror(rc));
  av.codec = avcodec_alloc_context3(codec);
  av.frame = av_frame_alloc();
  av.packet = av_packet_alloc();
  if (av.codec == nullptr || av.frame == nullptr || av.packet == nullptr) fail("out of memory");
  av.codec->width = width;
  av.codec->height = height;
  av.codec->pix_fmt = AV_PIX_FMT_YUV420P;
  av.codec->time_base = AVRational{1, fps};
  av.codec->framerate = AVRational{fps, 1};
  av.codec->gop_size = 2 * fps;
  // What the pixels are: sRGB colours in BT.709's studio-range yuv420p (players otherwise guess).
  av.codec->colorspace = AVCOL_SPC_BT709;
  av.codec->color_primaries = AVCOL_PRI_BT709;
  av.codec->color_trc = AVCOL_TRC_IEC61966_2_1;
  av.codec->color_range = AVCOL_RANGE_MPEG;
  if (container->flags & AVFMT_GLOBALHEADER) av.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (options.codec == "libx264") {
    // Options of x264 only: another encoder would refuse them.
    if ((rc = av_opt_set(av.codec->priv_data, "preset", options.preset.c_str(), 0)) < 0)
      fail("x264 preset '" + options.preset + "': " + averror(rc));
    if ((rc = av_opt_set_double(av.codec->priv_data, "crf", options.crf, 0)) < 0)
      fail("x264 crf " + std::to_string(options.crf) + ": " + averror(rc));
  }
  if ((rc = avcodec_open2(av.codec, codec, nullptr)) < 0) fail("opening the encoder " + options.codec + ": " + averror(rc));
  av.stream = avformat_new_stream(av.format, nullptr);
  if (av.stream == nullptr) fail("out of memory");
  av.stream->time_base = av.codec->time_base;
  av.stream->avg_frame_rate = av.codec->framerate;
  if ((rc = avcodec_parameters_from_context(av.stream->codecpar, av.codec)) < 0) fail(averror(rc));

  av.frame->format = AV_PIX_FMT_YUV420P;
  av.frame->width = width;
  av.frame->height = height;
  if ((rc = av_frame_get_buffer(av.frame, 0)) < 0) fail("frame buffer: " + averror(rc));
  av.rgba = av_frame_alloc();
  av.scaler = rgbaToYuvConverter(width, height);
  if (av.scaler == nullptr || av.rgba == nullptr) fail("no RGBA to yuv420p conversion");

  try {
    av.file = std::make_unique<OutputFile>(name);
  } catch (const FileWriteError& e) {
    fail(e.what());
  }
  auto* buffer = static_cast<unsigned char*>(av_malloc(kIoBufferBytes));
  av.io = buffer ? avio_alloc_context(buffer, kIoBufferBytes, 1, &av, nullptr, &Av::writePacket, &Av::seek) : nullptr;
  if (av.io == nullptr) {
    av_free(buffer);
    fail("out of memory");
  }
  av.format->pb = av.io;
  av.format->flags |= AVFMT_FLAG_CUSTOM_IO;
  if ((rc = avformat_write_header(av.format, nullptr)) < 0)
    fail("writing the header: " + (av.ioError.empty() ? averror(rc) : av.ioError));
  startThread();
}

VideoEncoder::~VideoEncoder() { abort(); }

namespace {
constexpr const char* kPresets[] = {"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"};
}

const std::set<std::string>& VideoEncoder::presets() {
  static const std::set<std::string> all(std::begin(kPresets), std::end(kPresets));
  return all;
}

std::string VideoEncoder::presetList() {
  std::string list;
  for (const char* p : kPresets) list += (list.empty() ? "" : ", ") + std::string(p);
  return list;
}

void VideoEncoder::writeFrame(const Frame& frame) {
  Av& av = *av_;
  int rc = av_frame_make_writable(av.frame);
  if (rc < 0) throw ExportError("recording " + shownPath(target().string()) + ": " + averror(rc));
  const int w = width(), h = height();
  if (frame.layout == PixelLayout::Yuv420) {
    const std::uint8_t* luma = frame.bytes.data();
    const std::uint8_t* chroma = luma + std::size_t(w) * std::size_t(h);
    av_image_copy_plane(av.frame->data[0], av.frame->linesize[0], luma, w, w, h);
    av_image_copy_plane(av.frame->data[1], av.frame->linesize[1], chroma, w, w / 2, h / 2);
    av_image_copy_plane(av.frame->data[2], av.frame->linesize[2], chroma + w / 2, w, w / 2, h / 2);
  } else {
    av.rgba->format = AV_PIX_FMT_RGBA;
    av.rgba->width = w, av.rgba->height = h;
    av.rgba->data[0] = const_cast<std::uint8_t*>(frame.bytes.data());
    av.rgba->linesize[0] = w * 4;
    if ((rc = sws_scale_frame(av.scaler, av.frame, av.rgba)) < 0)
      throw ExportError("recording " + shownPath(target().string()) + ": converting a frame to yuv420p: " + averror(rc));
  }
  av.frame->pts = nextPts_++;
  sendAndDrain(false);
}

void VideoEncoder::sendAndDrain(bool flush) {
  Av& av = *av_;
  auto fail = [&](const std::string& what, int rc) {
    throw ExportError("recording " + shownPath(target().string()) + ": " + what + ": " + averror(rc));
  };
  int rc = avcodec_send_frame(av.codec, flush ? nullptr : av.frame);
  if (rc < 0) fail("encoding", rc);
  while (true) {
    rc = avcodec_receive_packet(av.codec, av.packet);
    if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return;
    if (rc < 0) fail("encoding", rc);
    // One frame per packet in codec time: set before rescaling, or the stream's rate comes out wrong.
    av.packet->duration = 1;
    av_packet_rescale_ts(av.packet, av.codec->time_base, av.stream->time_base);
    av.packet->stream_index = av.stream->index;
    const int size = av.packet->size;
    rc = av_interleaved_write_frame(av.format, av.packet);  // takes the packet's reference
    if (!av.ioError.empty()) throw ExportError(av.ioError);
    if (rc < 0) fail("writing", rc);
    if (av.format->pb->error < 0) fail("writing", av.format->pb->error);
    addBytesWritten(std::uint64_t(size));
  }
}

void VideoEncoder::complete() {
  Av& av = *av_;
  sendAndDrain(true);
  int rc = av_write_trailer(av.format);
  avio_flush(av.format->pb);
  if (!av.ioError.empty()) throw ExportError(av.ioError);
  if (rc < 0) throw ExportError("recording " + shownPath(target().string()) + ": writing the trailer: " + averror(rc));
  if (av.format->pb->error < 0)
    throw ExportError("recording " + shownPath(target().string()) + ": writing the file: " + averror(av.format->pb->error));
  try {
    av.file->commit();
  } catch (const FileWriteError& e) {
    throw ExportError(e.what());
  }
}

void VideoEncoder::discard() noexcept {
  if (av_) av_->file.reset();  // without commit(): the temporary file goes, the target stays as it was
}

}  // namespace iso
