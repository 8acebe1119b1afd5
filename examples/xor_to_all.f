C     The example of the OpenSHMEM 1.0 manual page of SHMEM_XOR_TO_ALL
C     (SHMEM_COMP8_XOR_TO_ALL over the even PEs: PE_start 0,
C     logPE_stride 1, data in a COMMON block), with the page's N$PES
C     written NUM_PES().
C     Build and run:  oshfort xor_to_all.f -o xor_to_all
C                     oshrun -np 4 ./xor_to_all
      PROGRAM XORTOALL
      INCLUDE 'mpp/shmem.fh'
      INTEGER PSYNC(SHMEM_REDUCE_SYNC_SIZE)
      DATA PSYNC /SHMEM_REDUCE_SYNC_SIZE*SHMEM_SYNC_VALUE/
      INTEGER NR
      PARAMETER (NR=1)
      COMPLEX*16 FOO, FOOXOR
      COMPLEX*16 PWRK(MAX(NR/2+1,SHMEM_REDUCE_MIN_WRKDATA_SIZE))
      COMMON /COM/ FOO, FOOXOR, PWRK
      INTEGER MY_PE, NUM_PES
      CALL START_PES(0)
      FOO = CMPLX(MY_PE() + 1, -MY_PE(), KIND=8)
      CALL SHMEM_BARRIER_ALL()
      IF (MOD(MY_PE(), 2) .EQ. 0) THEN
        CALL SHMEM_COMP8_XOR_TO_ALL(FOOXOR, FOO, NR, 0, 1,
     &                              (NUM_PES() + 1) / 2, PWRK, PSYNC)
        WRITE (*, '(A,I0,A,2Z17.16)') 'Result on PE ', MY_PE(),
     &    ' is ', FOOXOR
      ELSE
        WRITE (*, '(A,I0,A)') 'PE ', MY_PE(), ' is not in the set'
      END IF
      END
