// zstd frames (see frame_compressor.h).
#include "store/frame_compressor.h"

#include <zstd.h>

#include <mutex>

namespace provio::store {
namespace {

// One compression context for the process, reused: making one per frame would allocate and clear
// its tables (hundreds of KiB) every time. Frames are compressed by the writer thread, so the
// context is almost never contended; a thread that finds it busy (the rare synchronous fallback)
// uses a context of its own rather than wait. Never freed: exit-time flushes still use it.
struct SharedContext {
  std::mutex mutex;
  ZSTD_CCtx* cctx = nullptr;  // guarded by mutex
};
SharedContext* g_shared = new SharedContext;

bool compress_with(ZSTD_CCtx* cctx, std::string_view plain, std::string& out) {
  if (!cctx) return false;
  ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
  std::size_t old = out.size();
  out.resize(old + ZSTD_compressBound(plain.size()));
  std::size_t n = ZSTD_compress2(cctx, out.data() + old, out.size() - old, plain.data(), plain.size());
  if (ZSTD_isError(n)) {
    out.resize(old);
    return false;
  }
  out.resize(old + n);
  return true;
}

}  // namespace

bool compress_frame(std::string_view plain, std::string& out) {
  std::unique_lock<std::mutex> lock(g_shared->mutex, std::try_to_lock);
  if (lock.owns_lock()) {
    if (!g_shared->cctx) g_shared->cctx = ZSTD_createCCtx();
    return compress_with(g_shared->cctx, plain, out);
  }
  ZSTD_CCtx* own = ZSTD_createCCtx();
  bool ok = compress_with(own, plain, out);
  ZSTD_freeCCtx(own);
  return ok;
}

}  // namespace provio::store
