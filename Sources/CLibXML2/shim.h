// libxml2's C API (apt: libxml2-dev): each RDF record of the feed parsed into a small tree.
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, whose headers clash with Foundation's own copy of ICU
// (UErrorCode defined twice). Only `xmlCharEncodingHandler`'s trailing ICU fields depend on
// it, and the package never touches that struct, so the ICU part is left out here.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

// xmlFree is a macro over a function pointer in threaded builds, which Swift cannot call.
static inline void gb_xml_free(void *pointer) { xmlFree(pointer); }
