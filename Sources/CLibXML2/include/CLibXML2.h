#ifndef AGGR_CLIBXML2_H
#define AGGR_CLIBXML2_H
/* libxml2, loaded on first use.
 *
 * Linking libxml2 loads ICU (libicuuc and its 30 MB of data), liblzma and zlib with it:
 * ~4M instructions and ~125 page faults before main in every aggr process, although most
 * commands never parse a page or a feed (`aggr timeline` reads the database). So aggr does
 * not link it: XMLLoader.c defines the libxml2 functions aggr calls and forwards each to
 * the real one, resolved with dlopen("libxml2.so.2") the first time any of them runs.
 *
 * The headers are libxml2's own (include/libxml links to Debian's libxml2-dev headers).
 * libxml2's ICU types clash with Foundation's ("UErrorCode has different definitions"):
 * read the version header first and switch ICU off before anything else includes it. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>

/* Whether libxml2 could be loaded; when not, aggr_xml_load_error() says why, and every
   parse returns NULL. */
int aggr_xml_loaded(void);
const char *aggr_xml_load_error(void);

/* libxml2 prints parse and XPath errors to stderr by default; aggr reports its own. Its
   error handlers are per thread: call this on the thread that parses. */
void aggr_xml_silence(void);

/* Frees a string libxml2 returned (xmlFree is a global function pointer, which Swift cannot
   call directly). */
void aggr_xml_free(void *pointer);
#endif
