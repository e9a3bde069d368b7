import Foundation

/// The EPUB the reader's tests read: a Project Gutenberg header, three chapters (headings, a
/// paragraph with a note reference and a page number, an image, verse, a table, a footnote)
/// and the licence, in four documents whose zip and manifest order (c, header, a, b) is not
/// their reading order (header, a, b, c).
public enum SampleEpub {
  /// Its title.
  public static let title = "Test Book"

  /// Three chapters in `c.xhtml`, `a.xhtml`, `b.xhtml` (the zip's and manifest's order), read
  /// in the spine's order a, b, c, after a PG-style header and before its licence.
  public static func book() -> (documents: [EpubWriter.File], spine: [String]) {
    let header = EpubWriter.xhtml(
      title: "Header",
      body: """
        <section id="pg-header"><p>The Project Gutenberg eBook of Test Book</p>
        <div id="pg-start-separator"><span>*** START OF THE PROJECT GUTENBERG EBOOK TEST \
        BOOK ***</span></div></section>
        """)
    let first = EpubWriter.xhtml(
      title: "One",
      body: """
        <h2>CHAPTER I.<br/>The Beginning</h2>
        <p>It was the <i>first</i> morning of the voyage, and the sea lay
           flat and grey under a sky that promised\u{A0}nothing; Walton wrote by the lamp
           until late<a id="r1" href="#fn1" class="noteref">1</a> and slept badly.<span \
        class="pagenum"><a id="Page_2">[Pg 2]</a></span> The ship was quiet.</p>
        <p class="fig"><img src="images/ship.jpg" alt="The ship in the ice"/></p>
        <div class="poem"><div class="stanza">
        <span class="i0">The ice was here, the ice was there,<br/></span>
        <span class="i2">The ice was all around:<br/></span>
        </div><div class="stanza">
        <span class="i0">It cracked and growled,<br/></span>
        </div></div>
        <p id="fn1"><a href="#r1">[1]</a> A note at the foot of the page.</p>
        """)
    let second = EpubWriter.xhtml(
      title: "Two",
      body: """
        <h2>CHAPTER II.</h2>
        <h3>A Table</h3>
        <table><tr><th>Name</th><th>Age</th></tr><tr><td>Victor</td><td>21</td></tr>
        <tr><td>Elizabeth Lavenza</td><td>19</td></tr></table>
        <p>The second chapter's words.</p>
        """)
    let third = EpubWriter.xhtml(
      title: "Three",
      body: """
        <h2>CHAPTER III.</h2>
        <p>The third chapter's words, the last of the book.</p>
        <section id="pg-footer"><div id="pg-end-separator"><span>*** END OF THE PROJECT \
        GUTENBERG EBOOK TEST BOOK ***</span></div>
        <p>\(String(repeating: "The licence's long paragraph goes on and on. ", count: 40))</p>
        </section>
        """)
    return (
      [
        EpubWriter.File(path: "c.xhtml", text: third),
        EpubWriter.File(path: "header.xhtml", text: header),
        EpubWriter.File(path: "a.xhtml", text: first),
        EpubWriter.File(path: "b.xhtml", text: second),
      ], ["header.xhtml", "a.xhtml", "b.xhtml", "c.xhtml"]
    )
  }

  /// Writes the book at `path`, with an image.
  public static func write(to path: String) throws {
    let book = Self.book()
    try EpubWriter.write(
      to: path, title: title, documents: book.documents, spine: book.spine,
      extra: [EpubWriter.File(path: "images/ship.jpg", bytes: Data(repeating: 0xFF, count: 900))]
    )
  }

}
