#ifndef AGGR_CLIBXML2_SHIM_H
#define AGGR_CLIBXML2_SHIM_H
/* libxml2's ICU types clash with Foundation's ("UErrorCode has different definitions"):
   read the version header first and switch ICU off before anything else includes it. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/* xmlFree is a global function pointer, which Swift cannot call directly. */
static inline void aggr_xml_free(void *pointer) { xmlFree(pointer); }
#endif
