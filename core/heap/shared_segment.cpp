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
#include <string>

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

// aligned: at an address aligned as map_aligned says (this PE's own segment), or anywhere (a
// neighbour's, reached through offsets).
Status map_fd(int fd, std::size_t size, bool aligned, std::byte *&base, const char *what) {
  void *p = aligned ? map_aligned(size, fd)
                    : mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    SMA_LOG_ERROR("heap", "mmap of {} ({} bytes) failed: {}", what, size, std::strerror(errno));
    return Status::no_memory;
  }
  base = static_cast<std::byte *>(p);
  return Status::ok;
}

}  // namespace

Status SharedSegment::create(const char *label, std::size_t size) {
  const int fd = memfd_create(label, MFD_CLOEXEC);
  if (fd < 0) {
    SMA_LOG_ERROR("heap", "cannot create shared memory for the {} (memfd_create): {}", label,
                  std::strerror(errno));
    return Status::io_error;
  }
  // A memfd is created with mode 0777 less nothing: the PEs of this node need read and write,
  // and nobody else any access (other users cannot reach /proc/<pid>/fd anyway).
  struct stat st {};
  if (fchmod(fd, 0600) != 0 || ftruncate(fd, static_cast<off_t>(size)) != 0 ||
      fstat(fd, &st) != 0) {
    SMA_LOG_ERROR("heap", "cannot set up shared memory for the {} ({} bytes): {}", label, size,
                  std::strerror(errno));
    close(fd);
    return Status::no_memory;
  }
  if (const Status s = map_fd(fd, size, true, base_, label); s != Status::ok) {
    close(fd);
    return s;
  }
  fd_ = fd;
  inode_ = st.st_ino;
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

Status SharedSegment::attach(const SegmentHandle &handle, std::size_t size) {
  const std::string path =
      "/proc/" + std::to_string(handle.pid) + "/fd/" + std::to_string(handle.fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    SMA_LOG_ERROR("heap",
                  "cannot open the shared memory of a PE of this node ({}): {}; it must run as "
                  "the same user, in the same PID namespace",
                  path, std::strerror(errno));
    return Status::io_error;
  }
  // Never map memory that is not that PE's segment (nor one too small, which would turn
  // accesses past its end into SIGBUS).
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_ino != handle.inode || st.st_uid != geteuid() ||
      (st.st_mode & 0777) != 0600 || static_cast<std::size_t>(st.st_size) != size) {
    SMA_LOG_ERROR("heap",
                  "{} is not the shared memory that PE created (inode {}, owner uid {}, mode "
                  "{:o}, {} bytes; expected inode {}, uid {}, mode 600, {} bytes)",
                  path, st.st_ino, st.st_uid, st.st_mode & 0777, st.st_size, handle.inode,
                  geteuid(), size);
    close(fd);
    return Status::io_error;
  }
  const Status s = map_fd(fd, size, false, base_, path.c_str());
  close(fd);
  if (s == Status::ok) size_ = size;
  return s;
}

Status SharedSegment::reserve(std::size_t offset, std::size_t bytes) {
  if (fd_ < 0 || bytes == 0) return Status::ok;
  if (fallocate(fd_, 0, static_cast<off_t>(offset), static_cast<off_t>(bytes)) == 0)
    return Status::ok;
  return errno == ENOSPC || errno == ENOMEM ? Status::no_memory : Status::io_error;
}

SegmentHandle SharedSegment::handle() const noexcept {
  return SegmentHandle{static_cast<std::int64_t>(getpid()), fd_, inode_};
}

Status SharedSegment::move_to(std::byte *where) noexcept {
  // The system call itself: UCX's memory hooks (UCM) replace mremap with a four-argument
  // version that drops `where` (UCX 1.13 returns null and moves nothing where asked).
  const long r = syscall(SYS_mremap, base_, size_, size_, MREMAP_MAYMOVE | MREMAP_FIXED, where);
  void *p = reinterpret_cast<void *>(r);
  if (r < 0 && r > -4096) errno = static_cast<int>(-r);
  if (p != where) {
    SMA_LOG_DEBUG("heap", "moving shared memory to {} failed: {}", static_cast<void *>(where),
                  std::strerror(errno));
    return Status::io_error;
  }
  base_ = static_cast<std::byte *>(p);
  keep_mapping_ = true;
  return Status::ok;
}

void SharedSegment::release() noexcept {
  if (base_ && !keep_mapping_) munmap(base_, size_);
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  inode_ = 0;
  keep_mapping_ = false;
  base_ = nullptr;
  size_ = 0;
}

}  // namespace shoal::heap
