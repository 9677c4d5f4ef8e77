/* verify.h -- compare two files' bytes: --verify reads a copy back,
   --checksum tells whether a --clone-dest file matches its source.  */

#ifndef FCOPY_VERIFY_H
#define FCOPY_VERIFY_H

#include <stdbool.h>
#include <sys/types.h>

/* What a comparison found.  */
enum compare_outcome
{
  COMPARE_SAME,
  COMPARE_DIFFERS,              /* at *AT: a byte, or one file ended */
  COMPARE_A_FAILED,             /* reading A failed, errno says why */
  COMPARE_B_FAILED              /* reading B failed, errno says why */
};

/* Compare LEN bytes of A_FD at A_OFF with those of B_FD at B_OFF; LEN
   -1: up to the end of both, which must end together.  */
enum compare_outcome compare_bytes (int a_fd, off_t a_off, int b_fd,
                                    off_t b_off, off_t len, off_t *at);

/* How a copy was verified.  */
enum verify_outcome
{
  VERIFY_NOT_DONE,              /* not asked, or not a regular file */
  VERIFIED_EXTENTS,             /* FIEMAP: every byte is the source's block */
  VERIFIED_DATA,                /* read back: the same bytes */
  VERIFY_DIFFERS,               /* read back: not the same, at *AT */
  VERIFY_SRC_FAILED,            /* reading the source failed (errno) */
  VERIFY_SYNC_FAILED,           /* writing DEST's data out failed (errno) */
  VERIFY_DST_FAILED             /* reading DEST back failed (errno) */
};

/* Verify that DST_FD, just written from SRC_FD, holds SRC_FD's bytes:
   LEN bytes from DST_OFF against SRC_OFF (LEN -1: the whole files).  If
   CLONED, the data was cloned and the extent maps may prove it; else,
   and where FIEMAP cannot tell (inline data), the bytes are read back,
   after DST's data is on the disk and dropped from the page cache, so
   that the disk is read where the filesystem has one.  */
enum verify_outcome verify_copy (int src_fd, off_t src_off, int dst_fd,
                                 off_t dst_off, off_t len, bool cloned,
                                 off_t *at);

#endif
