// An element's text as the DOM holds it, for tests to read. Not innerText:
// the page's sections are content-visibility: auto, and Chromium gives ""
// as the innerText of an element in a section it is not rendering at that
// moment, so a test reading innerText could compare two empty strings or
// search a page with its sections left out. Text nodes in order, a block
// (a paragraph, a row, a cell, a <br>) set apart by a space as a line break
// sets it apart on screen, inline elements joined as they are (x<sup>k</sup>
// reads "xk"), scripts and styles left out, runs of white space as one.
// Self-contained, as Playwright runs it in the page (locator.evaluate).
export const domText = (el) => {
  const apart = /^(P|DIV|LI|UL|OL|DL|DT|DD|TABLE|CAPTION|THEAD|TBODY|TFOOT|TR|TD|TH|H[1-6]|SECTION|HEADER|FOOTER|NAV|MAIN|ASIDE|FORM|FIELDSET|LEGEND|LABEL|SELECT|OPTION|FIGURE|FIGCAPTION|PRE|BLOCKQUOTE|DETAILS|SUMMARY|OUTPUT|BR)$/;
  const text = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.data;
    if (n.nodeType !== Node.ELEMENT_NODE || /^(SCRIPT|STYLE|TEMPLATE)$/.test(n.nodeName)) return '';
    const inner = [...n.childNodes].map(text).join('');
    return apart.test(n.nodeName) ? ` ${inner} ` : inner;
  };
  return text(el).replace(/\s+/g, ' ').trim();
};
