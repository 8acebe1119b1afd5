! Fortran put and get: every typed and sized SHMEM_*_PUT/GET, their _NBI forms, the strided
! IPUT/IGET, PUTMEM/GETMEM and SHMEM_PUT, between neighbours of a ring. Targets are SAVE
! variables and a COMMON block (symmetric data of a Fortran program). Every PE checks what it
! received; the program exits non-zero on any PE with a wrong value.
program f_rma
  implicit none
  include 'shmem.fh'
  integer, parameter :: N = 8
  integer :: shmem_my_pe, shmem_n_pes
  integer :: me, npes, right, left, k, nfail
  integer :: si(N), ti(N), gi(N)
  real :: sr(N), tr(N), gr(N)
  double precision :: sd(N), td(N), gd(N)
  logical :: sl(N), tl(N), gl(N)
  complex :: sc(N), tc(N), gc(N)
  character(len=N) :: sch, tch, gch
  integer*4 :: s4(N), t4(N), g4(N)
  integer*8 :: s8(N), t8(N), g8(N)
  integer*8 :: s16(2*N), t16(2*N), g16(2*N)
  integer :: ci(N)
  common /fcommon/ ci
  save

  call shmem_init()
  me = shmem_my_pe()
  npes = shmem_n_pes()
  right = mod(me + 1, npes)
  left = mod(me - 1 + npes, npes)
  nfail = 0

  ! ---- contiguous puts and gets, blocking -------------------------------------------------
  call fill()
  call shmem_integer_put(ti, si, N, right)
  call shmem_real_put(tr, sr, N, right)
  call shmem_double_put(td, sd, N, right)
  call shmem_logical_put(tl, sl, N, right)
  call shmem_complex_put(tc, sc, N, right)
  call shmem_character_put(tch, sch, N, right)
  call shmem_barrier_all()
  call check_all(left, 'full', 'typed put')
  call fill()
  call shmem_integer_get(gi, si, N, right)
  call shmem_real_get(gr, sr, N, right)
  call shmem_double_get(gd, sd, N, right)
  call shmem_logical_get(gl, sl, N, right)
  call shmem_complex_get(gc, sc, N, right)
  call shmem_character_get(gch, sch, N, right)
  call check_got(right, 'full', 'typed get')

  call fill()
  call shmem_put4(t4, s4, N, right)
  call shmem_put8(t8, s8, N, right)
  call shmem_put128(t16, s16, N, right)
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'full', 'put4/put8/put128')
  call fill()
  call shmem_put32(t4, s4, N, right)
  call shmem_put64(t8, s8, N, right)
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'full2', 'put32/put64')
  call fill()
  call shmem_putmem(t4, s4, 4 * N, right)
  call shmem_put(t8, s8, N, right)
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'full2', 'putmem/shmem_put')
  call fill()
  call shmem_get4(g4, s4, N, right)
  call shmem_get8(g8, s8, N, right)
  call shmem_get128(g16, s16, N, right)
  call check_sized(g4, g8, g16, right, 'full', 'get4/get8/get128')
  call fill()
  call shmem_get32(g4, s4, N, right)
  call shmem_get64(g8, s8, N, right)
  call check_sized(g4, g8, g16, right, 'full2', 'get32/get64')
  call fill()
  call shmem_getmem(g4, s4, 4 * N, right)
  call check4(g4, right, 'getmem')

  ! ---- non-blocking ------------------------------------------------------------------------
  call fill()
  call shmem_integer_put_nbi(ti, si, N, right)
  call shmem_real_put_nbi(tr, sr, N, right)
  call shmem_double_put_nbi(td, sd, N, right)
  call shmem_logical_put_nbi(tl, sl, N, right)
  call shmem_complex_put_nbi(tc, sc, N, right)
  call shmem_character_put_nbi(tch, sch, N, right)
  call shmem_quiet()
  call shmem_barrier_all()
  call check_all(left, 'full', 'typed put_nbi')
  call fill()
  call shmem_integer_get_nbi(gi, si, N, right)
  call shmem_real_get_nbi(gr, sr, N, right)
  call shmem_double_get_nbi(gd, sd, N, right)
  call shmem_logical_get_nbi(gl, sl, N, right)
  call shmem_complex_get_nbi(gc, sc, N, right)
  call shmem_character_get_nbi(gch, sch, N, right)
  call shmem_quiet()
  call check_got(right, 'full', 'typed get_nbi')
  call fill()
  call shmem_put4_nbi(t4, s4, N, right)
  call shmem_put8_nbi(t8, s8, N, right)
  call shmem_put128_nbi(t16, s16, N, right)
  call shmem_quiet()
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'full', 'put4/8/128_nbi')
  call fill()
  call shmem_put32_nbi(t4, s4, N, right)
  call shmem_put64_nbi(t8, s8, N, right)
  call shmem_quiet()
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'full2', 'put32/64_nbi')
  call fill()
  call shmem_putmem_nbi(t4, s4, 4 * N, right)
  call shmem_quiet()
  call shmem_barrier_all()
  call check4(t4, left, 'putmem_nbi')
  call fill()
  call shmem_get4_nbi(g4, s4, N, right)
  call shmem_get8_nbi(g8, s8, N, right)
  call shmem_get128_nbi(g16, s16, N, right)
  call shmem_quiet()
  call check_sized(g4, g8, g16, right, 'full', 'get4/8/128_nbi')
  call fill()
  call shmem_get32_nbi(g4, s4, N, right)
  call shmem_get64_nbi(g8, s8, N, right)
  call shmem_quiet()
  call check_sized(g4, g8, g16, right, 'full2', 'get32/64_nbi')
  call fill()
  call shmem_getmem_nbi(g4, s4, 4 * N, right)
  call shmem_quiet()
  call check4(g4, right, 'getmem_nbi')

  ! ---- strided: IPUT to every other target element, IGET of every other source element ----
  call fill()
  call shmem_integer_iput(ti, si, 2, 1, N / 2, right)
  call shmem_real_iput(tr, sr, 2, 1, N / 2, right)
  call shmem_double_iput(td, sd, 2, 1, N / 2, right)
  call shmem_logical_iput(tl, sl, 2, 1, N / 2, right)
  call shmem_complex_iput(tc, sc, 2, 1, N / 2, right)
  call shmem_barrier_all()
  call check_all(left, 'iput', 'typed iput')
  call fill()
  call shmem_integer_iget(gi, si, 1, 2, N / 2, right)
  call shmem_real_iget(gr, sr, 1, 2, N / 2, right)
  call shmem_double_iget(gd, sd, 1, 2, N / 2, right)
  call shmem_logical_iget(gl, sl, 1, 2, N / 2, right)
  call shmem_complex_iget(gc, sc, 1, 2, N / 2, right)
  call check_got(right, 'iget', 'typed iget')
  call fill()
  call shmem_iput4(t4, s4, 2, 1, N / 2, right)
  call shmem_iput8(t8, s8, 2, 1, N / 2, right)
  call shmem_iput128(t16, s16, 2, 1, N / 2, right)
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'iput', 'iput4/8/128')
  call fill()
  call shmem_iput32(t4, s4, 2, 1, N / 2, right)
  call shmem_iput64(t8, s8, 2, 1, N / 2, right)
  call shmem_barrier_all()
  call check_sized(t4, t8, t16, left, 'iput2', 'iput32/64')
  call fill()
  call shmem_iget4(g4, s4, 1, 2, N / 2, right)
  call shmem_iget8(g8, s8, 1, 2, N / 2, right)
  call shmem_iget128(g16, s16, 1, 2, N / 2, right)
  call check_sized(g4, g8, g16, right, 'iget', 'iget4/8/128')
  call fill()
  call shmem_iget32(g4, s4, 1, 2, N / 2, right)
  call shmem_iget64(g8, s8, 1, 2, N / 2, right)
  call check_sized(g4, g8, g16, right, 'iget2', 'iget32/64')

  ! ---- a COMMON block as the target, with fence between two puts -------------------------
  ci = -1
  call shmem_barrier_all()
  call shmem_integer_put(ci, si, N / 2, right)
  call shmem_fence()
  call shmem_integer_put(ci(N / 2 + 1), si(N / 2 + 1), N / 2, right)
  call shmem_barrier_all()
  do k = 1, N
    if (ci(k) /= val(left, k)) call fail('COMMON block put', k)
  end do

  call shmem_barrier_all()
  call shmem_finalize()
  if (nfail > 0) then
    print '(a,i0,a,i0,a)', 'f_rma: PE ', me, ': ', nfail, ' failures'
    stop 1
  end if
  if (me == 0) print '(a,i0,a)', 'f_rma: passed on ', npes, ' PEs'

contains

  integer function val(pe, k)
    integer, intent(in) :: pe, k
    val = pe * 100 + k
  end function val

  logical function lval(pe, k)
    integer, intent(in) :: pe, k
    lval = mod(val(pe, k), 3) == 0
  end function lval

  character function cval(pe, k)
    integer, intent(in) :: pe, k
    cval = achar(33 + mod(val(pe, k), 90))
  end function cval

  subroutine fail(what, k)
    character(len=*), intent(in) :: what
    integer, intent(in) :: k
    nfail = nfail + 1
    if (nfail <= 10) print '(a,i0,3a,i0)', 'f_rma: PE ', me, ': ', what, ' wrong at ', k
  end subroutine fail

  ! Sources hold this PE's values, targets zero; then every PE is ready.
  subroutine fill()
    integer :: j
    do j = 1, N
      si(j) = val(me, j)
      sr(j) = real(val(me, j))
      sd(j) = dble(val(me, j))
      sl(j) = lval(me, j)
      sc(j) = cmplx(real(val(me, j)), -real(j))
      sch(j:j) = cval(me, j)
      s4(j) = val(me, j)
      s8(j) = val(me, j)
      s16(2 * j - 1) = val(me, j)
      s16(2 * j) = -val(me, j)
    end do
    ti = 0; gi = 0; tr = 0; gr = 0; td = 0; gd = 0
    tl = .false.; gl = .false.; tc = (0.0, 0.0); gc = (0.0, 0.0)
    tch = repeat(' ', N); gch = repeat(' ', N)
    t4 = 0; g4 = 0; t8 = 0; g8 = 0; t16 = 0; g16 = 0
    call shmem_barrier_all()
  end subroutine fill

  ! The element j of a result that must hold: full: the source element j (all N);
  ! iput: the source element (j+1)/2 at odd j, untouched (0) at even j; iget: the source
  ! element 2j-1 for j <= N/2, untouched beyond.
  integer function want(mode, pe, j, present)
    character(len=*), intent(in) :: mode
    integer, intent(in) :: pe, j
    logical, intent(out) :: present
    present = .true.
    want = val(pe, j)
    if (mode == 'iput') then
      present = mod(j, 2) == 1
      want = val(pe, (j + 1) / 2)
    else if (mode == 'iget') then
      present = j <= N / 2
      want = val(pe, 2 * j - 1)
    end if
  end function want

  subroutine check_typed(xi, xr, xd, xl, xc, xch, pe, mode, what, chars)
    integer, intent(in) :: xi(N), pe
    real, intent(in) :: xr(N)
    double precision, intent(in) :: xd(N)
    logical, intent(in) :: xl(N), chars
    complex, intent(in) :: xc(N)
    character(len=N), intent(in) :: xch
    character(len=*), intent(in) :: mode, what
    integer :: j, w
    logical :: p
    do j = 1, N
      w = want(mode, pe, j, p)
      if (p) then
        if (xi(j) /= w) call fail(what // ' integer', j)
        if (xr(j) /= real(w)) call fail(what // ' real', j)
        if (xd(j) /= dble(w)) call fail(what // ' double', j)
        if (xl(j) .neqv. (mod(w, 3) == 0)) call fail(what // ' logical', j)
        if (real(xc(j)) /= real(w)) call fail(what // ' complex', j)
        if (chars .and. xch(j:j) /= achar(33 + mod(w, 90))) call fail(what // ' character', j)
      else
        if (xi(j) /= 0 .or. xr(j) /= 0 .or. xd(j) /= 0 .or. xl(j)) call fail(what // ' extra', j)
        if (real(xc(j)) /= 0) call fail(what // ' complex extra', j)
      end if
    end do
  end subroutine check_typed

  subroutine check_all(pe, mode, what)
    integer, intent(in) :: pe
    character(len=*), intent(in) :: mode, what
    call check_typed(ti, tr, td, tl, tc, tch, pe, mode, what, mode == 'full')
  end subroutine check_all

  subroutine check_got(pe, mode, what)
    integer, intent(in) :: pe
    character(len=*), intent(in) :: mode, what
    call check_typed(gi, gr, gd, gl, gc, gch, pe, mode, what, mode == 'full')
  end subroutine check_got

  ! Sized results: x4 and x8 always; x16 (16-byte elements) only for the modes without '2'.
  subroutine check_sized(x4, x8, x16, pe, mode, what)
    integer*4, intent(in) :: x4(N)
    integer*8, intent(in) :: x8(N), x16(2 * N)
    integer, intent(in) :: pe
    character(len=*), intent(in) :: mode, what
    character(len=4) :: m
    integer :: j, w
    logical :: p
    m = mode
    if (mode(len(mode):len(mode)) == '2') m = mode(1:len(mode) - 1)
    do j = 1, N
      w = want(trim(m), pe, j, p)
      if (.not. p) w = 0
      if (x4(j) /= w) call fail(what // ' 4-byte', j)
      if (x8(j) /= w) call fail(what // ' 8-byte', j)
      if (mode(len(mode):len(mode)) /= '2') then
        if (x16(2 * j - 1) /= w .or. x16(2 * j) /= -w) call fail(what // ' 16-byte', j)
      end if
    end do
  end subroutine check_sized

  ! A contiguous result of 4-byte elements only (PUTMEM/GETMEM move bytes of one array).
  subroutine check4(x4, pe, what)
    integer*4, intent(in) :: x4(N)
    integer, intent(in) :: pe
    character(len=*), intent(in) :: what
    integer :: j
    do j = 1, N
      if (x4(j) /= val(pe, j)) call fail(what, j)
    end do
  end subroutine check4

end program f_rma
