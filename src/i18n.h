/* i18n.h -- messages in the user's language (gettext), as GNU cp has
   them.

   _() marks a message to translate and translates it; N_() only marks
   one, for tables of strings translated where they are printed.  No
   translation ships yet: with none installed gettext returns the
   English text.  Lines that scripts parse (--debug, --stats, -v's
   "A -> B") are left untranslated, as cp leaves its --debug line.  */

#ifndef FCOPY_I18N_H
#define FCOPY_I18N_H

#include "gettext.h"

#define _(msgid) gettext (msgid)
#define N_(msgid) msgid

#endif
