/* json.h -- JSON strings of file names, for --debug=json.  */

#ifndef FCOPY_JSON_H
#define FCOPY_JSON_H

/* S, a file name, as a JSON string with its quotes: a string to free.
   A name is bytes, not text: bytes that are not strict UTF-8 (RFC 3629:
   no overlong forms, no surrogates, nothing past U+10FFFF) are written
   as the lone surrogates \udc80-\udcff, as Python's surrogateescape
   reads them, so that a reader gets the very bytes back
   (os.fsencode (json.loads (...)) in Python).  */
char *json_string (char const *s);

#endif
