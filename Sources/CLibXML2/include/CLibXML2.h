// libxml2, loaded on first use: `gb_xml_load` opens libxml2's shared library with dlopen, so
// only `sync --feed` and `read` of an EPUB, the commands that parse XML, map it and the ICU
// libraries it pulls in. Swift sees documents and nodes as opaque pointers and reads them through the accessors
// below; libxml's own headers (apt: libxml2-dev) are used by the C side only, as they need an
// include path (include/libxml2) that only pkg-config names.
//
// Call `gb_xml_load` first and go on only when it returns NULL: every other function here
// calls through the table it fills.
#ifndef GB_CLIBXML2_H
#define GB_CLIBXML2_H

struct _xmlDoc;
struct _xmlNode;

/// Opens libxml2 and resolves its functions, once per process; NULL when they are all there,
/// else one line saying what is missing and which package installs it.
const char *gb_xml_load(void);

/// Parses `size` bytes with no network, no error output and compact nodes; NULL when they are
/// not well-formed XML. Free with `gb_xml_free_document`.
struct _xmlDoc *gb_xml_read(const char *bytes, int size);
void gb_xml_free_document(struct _xmlDoc *document);
/// Whether the document has a document type declaration (an internal subset).
int gb_xml_has_doctype(const struct _xmlDoc *document);
/// The root element, or NULL.
struct _xmlNode *gb_xml_root(const struct _xmlDoc *document);

/// Whether the node is an element.
int gb_xml_is_element(const struct _xmlNode *node);
/// Whether the node is character data (text or CDATA).
int gb_xml_is_text(const struct _xmlNode *node);
struct _xmlNode *gb_xml_first_child(const struct _xmlNode *node);
struct _xmlNode *gb_xml_next(const struct _xmlNode *node);
/// The element's local name (UTF-8), or NULL.
const unsigned char *gb_xml_name(const struct _xmlNode *node);
/// The element's namespace URI (UTF-8), or NULL.
const unsigned char *gb_xml_namespace(const struct _xmlNode *node);
/// A text node's characters (UTF-8), or NULL.
const unsigned char *gb_xml_content(const struct _xmlNode *node);
/// The attribute `{space}name` as written, or NULL; free it with `gb_xml_free`.
unsigned char *gb_xml_attribute(const struct _xmlNode *node, const char *name, const char *space);
/// Frees a string libxml2 allocated.
void gb_xml_free(void *pointer);

// The reader's EPUB: an XHTML document read by libxml2's HTML parser (forgiving, as browsers
// are, of what is not well-formed), fed in pieces, its elements and text handed to the caller
// as they come (no tree is built). Names are lower-case UTF-8; attributes a NULL-terminated
// list of name, value pairs; text is not NUL-terminated.
typedef void (*gb_html_element_start)(void *context, const unsigned char *name,
                                      const unsigned char **attributes);
typedef void (*gb_html_element_end)(void *context, const unsigned char *name);
typedef void (*gb_html_characters)(void *context, const unsigned char *bytes, int length);
struct gb_html_parser;
/// A parser calling back with `context`; `utf8`: the bytes are UTF-8 (else detected). NULL
/// when out of memory. Free with `gb_html_finish`.
struct gb_html_parser *gb_html_start(void *context, gb_html_element_start start,
                                     gb_html_element_end end, gb_html_characters characters,
                                     int utf8);
/// Parses the next `size` bytes (`last`: they end the document).
int gb_html_feed(struct gb_html_parser *parser, const char *bytes, int size, int last);
void gb_html_finish(struct gb_html_parser *parser);

#endif
