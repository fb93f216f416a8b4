#pragma once
// Reading recordings back for the export tests: a video decoded with libavformat/libavcodec (frame
// count, size, rate, the last frame's pixels), and the files a folder holds.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace iso::test {

struct DecodedVideo {
  std::string error;  // empty when the file decoded
  int frames = 0, width = 0, height = 0;
  double fps = 0.0;              // the stream's average frame rate
  double durationSeconds = 0.0;  // the container's duration
  std::vector<std::uint8_t> lastFrameRgba;  // width * height * 4
};

inline DecodedVideo decodeVideo(const std::filesystem::path& path) {
  DecodedVideo out;
  AVFormatContext* format = nullptr;
  if (avformat_open_input(&format, path.c_str(), nullptr, nullptr) < 0) return out.error = "cannot open", out;
  AVCodecContext* codec = nullptr;
  AVFrame* frame = av_frame_alloc();
  AVPacket* packet = av_packet_alloc();
  SwsContext* toRgba = nullptr;
  int stream = -1;
  const AVCodec* decoder = nullptr;
  if (avformat_find_stream_info(format, nullptr) < 0 ||
      (stream = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)) < 0) {
    out.error = "no video stream";
  } else {
    AVStream* s = format->streams[stream];
    out.fps = av_q2d(s->avg_frame_rate);
    out.durationSeconds = format->duration > 0 ? double(format->duration) / AV_TIME_BASE : 0.0;
    codec = avcodec_alloc_context3(decoder);
    avcodec_parameters_to_context(codec, s->codecpar);
    if (avcodec_open2(codec, decoder, nullptr) < 0) out.error = "cannot open the decoder";
    out.width = codec->width;
    out.height = codec->height;
    auto receive = [&] {
      while (avcodec_receive_frame(codec, frame) == 0) {
        ++out.frames;
        toRgba = sws_getCachedContext(toRgba, frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                      frame->height, AV_PIX_FMT_RGBA, SWS_BILINEAR, nullptr, nullptr, nullptr);
        // As a player does: the stream's own colour description (BT.601 and studio range unless it says).
        const int* matrix = sws_getCoefficients(frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT);
        sws_setColorspaceDetails(toRgba, matrix, frame->color_range == AVCOL_RANGE_JPEG, sws_getCoefficients(SWS_CS_DEFAULT),
                                 1, 0, 1 << 16, 1 << 16);
        out.lastFrameRgba.assign(std::size_t(frame->width) * frame->height * 4, 0);
        std::uint8_t* planes[1] = {out.lastFrameRgba.data()};
        const int strides[1] = {frame->width * 4};
        sws_scale(toRgba, frame->data, frame->linesize, 0, frame->height, planes, strides);
      }
    };
    while (out.error.empty() && av_read_frame(format, packet) >= 0) {
      if (packet->stream_index == stream && avcodec_send_packet(codec, packet) >= 0) receive();
      av_packet_unref(packet);
    }
    avcodec_send_packet(codec, nullptr);  // flush
    receive();
  }
  sws_freeContext(toRgba);
  av_packet_free(&packet);
  av_frame_free(&frame);
  avcodec_free_context(&codec);
  avformat_close_input(&format);
  return out;
}

// Reddish and bluish pixels (the seismic colormap's two signs, also under the velocity overlay's
// earth tones, which stay within 40 levels between channels) of an RGBA picture.
inline std::pair<long, long> countSigns(const std::vector<std::uint8_t>& rgba) {
  long red = 0, blue = 0;
  for (std::size_t p = 0; p + 3 < rgba.size(); p += 4) {
    const int r = rgba[p], g = rgba[p + 1], b = rgba[p + 2];
    red += r > g + 40 && r > b + 40;
    blue += b > r + 40 && b > g + 40;
  }
  return {red, blue};
}

inline std::set<std::string> filesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) names.insert(entry.path().filename().string());
  return names;
}

inline std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace iso::test
