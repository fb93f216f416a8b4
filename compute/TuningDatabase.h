#pragma once
// Tuned stage parameters, from two databases of the same format:
//  - shipped with the program: resources/tuning/*.json, embedded at build time, measured on the devices
//    named in it (the H100 rows come from `iso3dfd tune` runs recorded in docs/PERFORMANCE.md);
//  - the user's own: tuning.json in the cache directory, written by `iso3dfd tune`, the studio's
//    benchmark panel and `iso3dfd bench --tune`.
//
// Format "iso3dfd-tuning/1":
//   {"schema": "iso3dfd-tuning/1",
//    "entries": [{"stage": "gpu-optimized",
//                 "match": {"device": "NVIDIA H100 80GB HBM3", "size_class": "large"},
//                 "params": {"tile_x": 32, ...},
//                 "measured": {"grid": [512, 512, 512], "mpts_per_s": 155444, "date": "2026-11-23",
//                              "device": "NVIDIA H100 80GB HBM3", "driver": "580.159.04"}}]}
// An entry applies to a device and grid when every key of its "match" holds:
//   vendor          case-insensitive substring of the device's vendor ("NVIDIA")
//   type            "GPU", "CPU", ...
//   nv_compute_min  NVIDIA compute capability major version at least this
//   architecture    "sm_90" (NVIDIA compute capability); other vendors have none
//   device          the device name, exactly
//   driver          the driver version, exactly (the user's entries carry it)
//   size_class      "small", "medium" or "large" (gridSizeClass)
// Of the entries that apply, the most specific wins: the sum of weights size_class 32, device 16,
// driver 8, architecture 4, nv_compute_min 3, vendor 2, type 1; on a tie the user's entry wins. So the
// user's tuning of this device and size class beats the shipped one, a shipped entry for this size
// class beats a tuning made for another, and an entry without size_class is the fallback for all sizes.
// Parameters an entry does not name keep the stage's built-in defaults (stages/OpenClStage.h).
#include <optional>
#include <string>

#include "compute/DeviceRegistry.h"
#include "core/Grid.h"
#include "core/StageRegistry.h"

namespace iso {

inline constexpr const char* kTuningSchema = "iso3dfd-tuning/1";

// Grid-size classes by interior points: small below 2^22 (~161³), medium below 2^25 (~322³), large above.
// Small grids need small z chunks to give every compute unit work; large ones favour long chunks.
std::string gridSizeClass(const Grid& grid);

// "sm_90" for an NVIDIA device that reports its compute capability, else "".
std::string deviceArchitecture(const DeviceInfo& device);

struct TunedParams {
  StageParamMap params;
  std::string origin;  // for people: "shipped: NVIDIA H100 80GB HBM3, large grids (155444 Mpts/s at 512x512x512, 2026-11-23)"
  bool shipped = false;
};

// The best entry for this stage, device and grid from both databases; nullopt when none applies.
// A user database that cannot be read (damaged, too large or deep, another version's schema) is not
// used, with a note once per process, and left as it is. An entry with a parameter that is not an
// integer within int is skipped.
std::optional<TunedParams> lookupTuning(const std::string& stage, const DeviceInfo& device, const Grid& grid);

// Stores a tuning in the user's database for this device, driver and grid-size class (replacing the
// previous one of the same stage and match; entries it does not understand are kept as they are).
// Whole or not at all; throws ComputeError when it cannot. A database that cannot be read is never
// overwritten: it is kept under a backup name (setAsideDamagedCacheFile), which is returned ("" when
// there was nothing to keep), and a new database holds this tuning.
std::string storeTuning(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                        const Grid& tunedOn, double mptsPerSecond);

// The entry a shipped database would hold for this measurement (matched on device and size class), as
// JSON text: what `iso3dfd tune --shipped-entry` prints for resources/tuning/.
std::string shippedTuningEntry(const std::string& stage, const DeviceInfo& device, const StageParamMap& params,
                               const Grid& tunedOn, double mptsPerSecond);

}  // namespace iso
