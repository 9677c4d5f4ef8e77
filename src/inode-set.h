/* inode-set.h -- files remembered by device and inode number, each with
   a name: the copies of hard-linked sources, the files made so far.  */

#ifndef FCOPY_INODE_SET_H
#define FCOPY_INODE_SET_H

#include <sys/stat.h>

struct inode_set;

struct inode_set *inode_set_new (void);
void inode_set_free (struct inode_set *set);

/* Remember ST's file under NAME (copied), unless it is there already. */
void inode_set_add (struct inode_set *set, struct stat const *st,
                    char const *name);

/* The name ST's file was remembered under, or NULL.  */
char const *inode_set_find (struct inode_set *set, struct stat const *st);

#endif
