#ifndef AGGR_CLIBXML2_SHIM_H
#define AGGR_CLIBXML2_SHIM_H
/* libxml2's ICU types clash with Foundation's ("UErrorCode has different definitions"):
   read the version header first and switch ICU off before anything else includes it. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>

/* libxml2 prints parse and XPath errors to stderr by default; aggr reports its own. The
   generic handler is variadic, so it is installed from C. */
static void aggr_xml_ignore_generic(void *context, const char *message, ...) { (void)context; (void)message; }
static void aggr_xml_ignore_structured(void *context, const xmlError *error) { (void)context; (void)error; }
static inline void aggr_xml_silence(void) {
    xmlSetGenericErrorFunc(NULL, aggr_xml_ignore_generic);
    xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)aggr_xml_ignore_structured);
}

/* xmlFree is a global function pointer, which Swift cannot call directly. */
static inline void aggr_xml_free(void *pointer) { xmlFree(pointer); }
#endif
