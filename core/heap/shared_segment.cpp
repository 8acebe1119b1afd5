#include "heap/shared_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "log/log.hpp"

namespace shoal::heap {
namespace {

// Maps `size` bytes of `fd` (shared), or of private anonymous memory when fd < 0, at an address
// aligned to the smallest power of two >= size. The heap's offsets are then as aligned as its
// addresses, so shmem_align honours every power-of-two alignment up to the heap size with the
// same offset on every PE. Only address space is reserved beyond `size`, and given back.
void *map_aligned(std::size_t size, int fd) noexcept {
  const std::size_t align = std::bit_ceil(size);
  void *reserved =
      mmap(nullptr, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) return MAP_FAILED;
  const auto start = reinterpret_cast<std::uintptr_t>(reserved);
  const std::uintptr_t aligned = (start + align - 1) & ~(align - 1);
  void *where = reinterpret_cast<void *>(aligned);
  void *p = fd >= 0 ? mmap(where, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0)
                    : mmap(where, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED) {
    const int error = errno;
    munmap(reserved, size + align);
    errno = error;
    return MAP_FAILED;
  }
  if (aligned > start) munmap(reserved, aligned - start);
  const std::uintptr_t end = start + size + align, used_end = aligned + size;
  if (end > used_end) munmap(reinterpret_cast<void *>(used_end), end - used_end);
  return p;
}

// aligned: at an address aligned as map_aligned says (this PE's own heap), or anywhere (a
// neighbour's heap, reached through offsets).
Status map_fd(int fd, std::size_t size, bool aligned, std::byte *&base, const std::string &name) {
  void *p = aligned ? map_aligned(size, fd)
                    : mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    SMA_LOG_ERROR("heap", "mmap of shared memory /dev/shm{} ({} bytes) failed: {}", name, size,
                  std::strerror(errno));
    return Status::no_memory;
  }
  base = static_cast<std::byte *>(p);
  return Status::ok;
}

}  // namespace

std::string segment_name(const std::string &job_name, int pe) {
  return "/shoal-" + job_name + "-" + std::to_string(pe);
}

std::string data_segment_name(const std::string &job_name, int pe) {
  return segment_name(job_name, pe) + "-data";
}

Status SharedSegment::create(const std::string &name, std::size_t size) {
  // O_EXCL: a name that already exists is never reused, whoever made it, so a PE never shares
  // memory that this job did not create.
  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0 && errno == EEXIST) {
    SMA_LOG_ERROR("heap",
                  "cannot create shared memory /dev/shm{}: the name already exists (left by a "
                  "job that was killed, or made by another process); refusing to use memory "
                  "this job did not create",
                  name);
    return Status::already_exists;
  }
  if (fd < 0) {
    SMA_LOG_ERROR("heap", "cannot create shared memory /dev/shm{}: {}", name, std::strerror(errno));
    return Status::io_error;
  }
  name_ = name;
  // The umask may have taken permissions away; the PEs of this node need read and write, and
  // nobody else any access.
  if (fchmod(fd, 0600) != 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    SMA_LOG_ERROR("heap", "cannot set up shared memory /dev/shm{} of {} bytes: {}", name, size,
                  std::strerror(errno));
    close(fd);
    unlink();
    return Status::no_memory;
  }
  const Status s = map_fd(fd, size, true, base_, name);
  close(fd);
  if (s != Status::ok) {
    unlink();
    return s;
  }
  size_ = size;
  return Status::ok;
}

Status SharedSegment::create_private(std::size_t size) {
  void *p = map_aligned(size, -1);
  if (p == MAP_FAILED) {
    SMA_LOG_ERROR("heap", "cannot reserve {} bytes for the symmetric heap: {}", size,
                  std::strerror(errno));
    return Status::no_memory;
  }
  base_ = static_cast<std::byte *>(p);
  size_ = size;
  return Status::ok;
}

Status SharedSegment::attach(const std::string &name, std::size_t size) {
  const int fd = shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) {
    SMA_LOG_ERROR("heap", "cannot open shared memory /dev/shm{} of a local PE: {}", name,
                  std::strerror(errno));
    return Status::io_error;
  }
  // The PE that owns the name created it exclusively before the fence that led here, so this
  // only fails if something replaced it: never map such memory (nor one too small, which would
  // turn accesses past its end into SIGBUS).
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 0777) != 0600 ||
      static_cast<std::size_t>(st.st_size) != size) {
    SMA_LOG_ERROR("heap",
                  "shared memory /dev/shm{} of a local PE is not what that PE created (owner "
                  "uid {}, mode {:o}, {} bytes; expected uid {}, mode 600, {} bytes)",
                  name, st.st_uid, st.st_mode & 0777, st.st_size, geteuid(), size);
    close(fd);
    return Status::io_error;
  }
  const Status s = map_fd(fd, size, false, base_, name);
  close(fd);
  if (s == Status::ok) size_ = size;
  return s;
}

Status SharedSegment::move_to(std::byte *where) noexcept {
  // The system call itself: UCX's memory hooks (UCM) replace mremap with a four-argument
  // version that drops `where` (UCX 1.13 returns null and moves nothing where asked).
  const long r = syscall(SYS_mremap, base_, size_, size_, MREMAP_MAYMOVE | MREMAP_FIXED, where);
  void *p = reinterpret_cast<void *>(r);
  if (r < 0 && r > -4096) errno = static_cast<int>(-r);
  if (p != where) {
    SMA_LOG_DEBUG("heap", "moving shared memory /dev/shm{} to {} failed: {}", name_,
                  static_cast<void *>(where), std::strerror(errno));
    return Status::io_error;
  }
  base_ = static_cast<std::byte *>(p);
  keep_mapping_ = true;
  return Status::ok;
}

void SharedSegment::unlink() noexcept {
  if (!name_.empty()) {
    shm_unlink(name_.c_str());
    name_.clear();
  }
}

void SharedSegment::release() noexcept {
  unlink();
  if (base_ && !keep_mapping_) munmap(base_, size_);
  keep_mapping_ = false;
  base_ = nullptr;
  size_ = 0;
}

}  // namespace shoal::heap
