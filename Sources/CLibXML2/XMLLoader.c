/* Defines the libxml2 functions aggr calls and forwards them to libxml2.so.2, loaded with
 * dlopen on first use (see include/CLibXML2.h for why). */
#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    void *library;
    char error[512];
    xmlFreeFunc *free;
    void (*init_parser)(void);
    void (*set_generic_error)(void *, xmlGenericErrorFunc);
    void (*set_structured_error)(void *, xmlStructuredErrorFunc);
    htmlDocPtr (*html_read_memory)(const char *, int, const char *, const char *, int);
    xmlDocPtr (*xml_read_memory)(const char *, int, const char *, const char *, int);
    void (*free_doc)(xmlDocPtr);
    xmlNodePtr (*root_element)(const xmlDoc *);
    xmlChar *(*get_prop)(const xmlNode *, const xmlChar *);
    xmlChar *(*get_ns_prop)(const xmlNode *, const xmlChar *, const xmlChar *);
    xmlChar *(*node_content)(const xmlNode *);
    xmlChar *(*node_base)(const xmlDoc *, const xmlNode *);
    int (*node_dump)(xmlBufferPtr, xmlDocPtr, xmlNodePtr, int, int);
    int (*html_node_dump)(xmlBufferPtr, xmlDocPtr, xmlNodePtr);
    xmlBufferPtr (*buffer_create)(void);
    void (*buffer_free)(xmlBufferPtr);
    const xmlChar *(*buffer_content)(const xmlBuffer *);
    xmlCharEncodingHandlerPtr (*find_encoding)(const char *);
    int (*close_encoding)(xmlCharEncodingHandler *);
    const htmlEntityDesc *(*entity_lookup)(const xmlChar *);
    xmlXPathContextPtr (*xpath_new_context)(xmlDocPtr);
    void (*xpath_free_context)(xmlXPathContextPtr);
    xmlXPathObjectPtr (*xpath_eval)(const xmlChar *, xmlXPathContextPtr);
    void (*xpath_free_object)(xmlXPathObjectPtr);
} xml;

static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                                                      \
    do {                                                                                          \
        *(void **)(&xml.field) = dlsym(xml.library, name);                                         \
        if (xml.field == NULL) {                                                                   \
            snprintf(xml.error, sizeof xml.error, "libxml2.so.2 has no %s", name);                 \
            xml.library = NULL;                                                                    \
            return;                                                                                \
        }                                                                                         \
    } while (0)

static void load(void) {
    xml.library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (xml.library == NULL) {
        snprintf(xml.error, sizeof xml.error, "cannot load libxml2: %s", dlerror());
        return;
    }
    RESOLVE(free, "xmlFree");
    RESOLVE(init_parser, "xmlInitParser");
    RESOLVE(set_generic_error, "xmlSetGenericErrorFunc");
    RESOLVE(set_structured_error, "xmlSetStructuredErrorFunc");
    RESOLVE(html_read_memory, "htmlReadMemory");
    RESOLVE(xml_read_memory, "xmlReadMemory");
    RESOLVE(free_doc, "xmlFreeDoc");
    RESOLVE(root_element, "xmlDocGetRootElement");
    RESOLVE(get_prop, "xmlGetProp");
    RESOLVE(get_ns_prop, "xmlGetNsProp");
    RESOLVE(node_content, "xmlNodeGetContent");
    RESOLVE(node_base, "xmlNodeGetBase");
    RESOLVE(node_dump, "xmlNodeDump");
    RESOLVE(html_node_dump, "htmlNodeDump");
    RESOLVE(buffer_create, "xmlBufferCreate");
    RESOLVE(buffer_free, "xmlBufferFree");
    RESOLVE(buffer_content, "xmlBufferContent");
    RESOLVE(find_encoding, "xmlFindCharEncodingHandler");
    RESOLVE(close_encoding, "xmlCharEncCloseFunc");
    RESOLVE(entity_lookup, "htmlEntityLookup");
    RESOLVE(xpath_new_context, "xmlXPathNewContext");
    RESOLVE(xpath_free_context, "xmlXPathFreeContext");
    RESOLVE(xpath_eval, "xmlXPathEvalExpression");
    RESOLVE(xpath_free_object, "xmlXPathFreeObject");
    /* Once, before any thread parses: libxml2's global tables are not built lazily safely. */
    xml.init_parser();
}

static int ready(void) {
    pthread_once(&once, load);
    return xml.library != NULL;
}

int aggr_xml_loaded(void) { return ready(); }
const char *aggr_xml_load_error(void) { return ready() ? NULL : xml.error; }

static void ignore_generic(void *context, const char *message, ...) { (void)context; (void)message; }
static void ignore_structured(void *context, const xmlError *error) { (void)context; (void)error; }

void aggr_xml_silence(void) {
    if (!ready()) return;
    xml.set_generic_error(NULL, ignore_generic);
    xml.set_structured_error(NULL, (xmlStructuredErrorFunc)ignore_structured);
}

void aggr_xml_free(void *pointer) { if (pointer != NULL && ready()) (*xml.free)(pointer); }

htmlDocPtr htmlReadMemory(const char *buffer, int size, const char *URL, const char *encoding, int options) {
    return ready() ? xml.html_read_memory(buffer, size, URL, encoding, options) : NULL;
}
xmlDocPtr xmlReadMemory(const char *buffer, int size, const char *URL, const char *encoding, int options) {
    return ready() ? xml.xml_read_memory(buffer, size, URL, encoding, options) : NULL;
}
/* The functions below take what only a loaded libxml2 made, so it is loaded when they run. */
void xmlFreeDoc(xmlDocPtr document) { xml.free_doc(document); }
xmlNodePtr xmlDocGetRootElement(const xmlDoc *document) { return xml.root_element(document); }
xmlChar *xmlGetProp(const xmlNode *node, const xmlChar *name) { return xml.get_prop(node, name); }
xmlChar *xmlGetNsProp(const xmlNode *node, const xmlChar *name, const xmlChar *space) {
    return xml.get_ns_prop(node, name, space);
}
xmlChar *xmlNodeGetContent(const xmlNode *node) { return xml.node_content(node); }
xmlChar *xmlNodeGetBase(const xmlDoc *document, const xmlNode *node) { return xml.node_base(document, node); }
int xmlNodeDump(xmlBufferPtr buffer, xmlDocPtr document, xmlNodePtr node, int level, int format) {
    return xml.node_dump(buffer, document, node, level, format);
}
int htmlNodeDump(xmlBufferPtr buffer, xmlDocPtr document, xmlNodePtr node) { return xml.html_node_dump(buffer, document, node); }
void xmlBufferFree(xmlBufferPtr buffer) { xml.buffer_free(buffer); }
const xmlChar *xmlBufferContent(const xmlBuffer *buffer) { return xml.buffer_content(buffer); }
int xmlCharEncCloseFunc(xmlCharEncodingHandler *handler) { return xml.close_encoding(handler); }
void xmlXPathFreeContext(xmlXPathContextPtr context) { xml.xpath_free_context(context); }
xmlXPathObjectPtr xmlXPathEvalExpression(const xmlChar *text, xmlXPathContextPtr context) { return xml.xpath_eval(text, context); }
void xmlXPathFreeObject(xmlXPathObjectPtr object) { xml.xpath_free_object(object); }
/* These may be the first call of a process: they load libxml2. */
xmlBufferPtr xmlBufferCreate(void) { return ready() ? xml.buffer_create() : NULL; }
xmlCharEncodingHandlerPtr xmlFindCharEncodingHandler(const char *name) { return ready() ? xml.find_encoding(name) : NULL; }
const htmlEntityDesc *htmlEntityLookup(const xmlChar *name) { return ready() ? xml.entity_lookup(name) : NULL; }
xmlXPathContextPtr xmlXPathNewContext(xmlDocPtr document) { return ready() ? xml.xpath_new_context(document) : NULL; }
