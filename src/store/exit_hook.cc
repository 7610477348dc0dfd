// Pointing the program's _exit at a flushing hook (see exit_hook.h).
//
// Each loaded object calls _exit through a slot of its global offset table, filled by the dynamic
// linker from the object's JUMP_SLOT (a PLT call) or GLOB_DAT (-fno-plt, an address taken)
// relocation of the symbol. Rewriting those slots redirects every call the object makes, whether
// it was bound already or not. Slots in the object's RELRO region are read-only after relocation:
// made writable for the store, then read-only again.
#include "store/exit_hook.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "store/process_end.h"

namespace provio::store {
namespace {

std::atomic<bool> g_wrapped{false};

#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
constexpr std::uint32_t kJumpSlot = R_X86_64_JUMP_SLOT, kGlobDat = R_X86_64_GLOB_DAT;
#else
constexpr std::uint32_t kJumpSlot = R_AARCH64_JUMP_SLOT, kGlobDat = R_AARCH64_GLOB_DAT;
#endif

[[noreturn]] void exit_hook(int status) {
  flush_before_end();
  ::_exit(status);  // libprovio's own slot, which is never rewritten
}

struct Tables {
  const ElfW(Sym) * symbols = nullptr;
  const char* names = nullptr;
  const ElfW(Rela) * relocs[2] = {nullptr, nullptr};  // DT_JMPREL, DT_RELA
  std::size_t sizes[2] = {0, 0};
};

// glibc stores the dynamic section's addresses relocated, except in a read-only one (the vDSO):
// an address below the load base is still an offset.
std::uintptr_t absolute(ElfW(Addr) a, ElfW(Addr) base) {
  return a < base ? a + base : a;
}

Tables tables_of(const ElfW(Dyn) * dyn, ElfW(Addr) base) {
  Tables t;
  bool rela_plt = true;
  for (; dyn->d_tag != DT_NULL; ++dyn) {
    switch (dyn->d_tag) {
      case DT_SYMTAB: t.symbols = reinterpret_cast<const ElfW(Sym)*>(absolute(dyn->d_un.d_ptr, base)); break;
      case DT_STRTAB: t.names = reinterpret_cast<const char*>(absolute(dyn->d_un.d_ptr, base)); break;
      case DT_JMPREL:
        t.relocs[0] = reinterpret_cast<const ElfW(Rela)*>(absolute(dyn->d_un.d_ptr, base));
        break;
      case DT_PLTRELSZ: t.sizes[0] = dyn->d_un.d_val; break;
      case DT_PLTREL: rela_plt = dyn->d_un.d_val == DT_RELA; break;
      case DT_RELA: t.relocs[1] = reinterpret_cast<const ElfW(Rela)*>(absolute(dyn->d_un.d_ptr, base)); break;
      case DT_RELASZ: t.sizes[1] = dyn->d_un.d_val; break;
      default: break;
    }
  }
  if (!rela_plt) t.relocs[0] = nullptr;  // both targets use RELA; anything else is not ours to read
  return t;
}

void store_slot(void** slot, const dl_phdr_info* info) {
  auto page_size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  auto at = reinterpret_cast<std::uintptr_t>(slot);
  // The loader makes the RELRO region read-only up to its last whole page; a slot in the partial
  // page after it stays writable, and that page holds other data that must stay writable.
  bool read_only = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    std::uintptr_t from = info->dlpi_addr + ph.p_vaddr;
    std::uintptr_t to = (from + ph.p_memsz) & ~(page_size - 1);
    if (ph.p_type == PT_GNU_RELRO && at >= from && at < to) read_only = true;
  }
  void* page = reinterpret_cast<void*>(at & ~(page_size - 1));
  if (read_only && mprotect(page, page_size, PROT_READ | PROT_WRITE) != 0) return;
  *slot = reinterpret_cast<void*>(&exit_hook);
  if (read_only) mprotect(page, page_size, PROT_READ);
}

int hook_object(dl_phdr_info* info, std::size_t, void* self) {
  if (info->dlpi_name && std::strcmp(info->dlpi_name, static_cast<const char*>(self)) == 0) return 0;
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  }
  if (!dyn) return 0;
  Tables t = tables_of(dyn, info->dlpi_addr);
  if (!t.symbols || !t.names) return 0;
  for (int k = 0; k < 2; ++k) {
    if (!t.relocs[k]) continue;
    for (std::size_t i = 0; i < t.sizes[k] / sizeof(ElfW(Rela)); ++i) {
      const ElfW(Rela)& r = t.relocs[k][i];
      std::uint32_t type = ELF64_R_TYPE(r.r_info);
      if (type != kJumpSlot && type != kGlobDat) continue;
      const char* name = t.names + t.symbols[ELF64_R_SYM(r.r_info)].st_name;
      if (std::strcmp(name, "_exit") == 0 || std::strcmp(name, "_Exit") == 0)
        store_slot(reinterpret_cast<void**>(info->dlpi_addr + r.r_offset), info);
    }
  }
  return 0;
}
#endif

}  // namespace

void note_exit_wrapped() {
  g_wrapped.store(true, std::memory_order_relaxed);
}

void hook_exit() {
#if defined(__x86_64__) || defined(__aarch64__)
  static std::atomic<bool> done{false};
  if (g_wrapped.load(std::memory_order_relaxed) || done.exchange(true)) return;
  Dl_info self;  // libprovio itself: its own call of the real _exit must stay
  if (dladdr(reinterpret_cast<void*>(&exit_hook), &self) == 0 || !self.dli_fname) return;
  dl_iterate_phdr(hook_object, const_cast<char*>(self.dli_fname));
#endif
}

}  // namespace provio::store
