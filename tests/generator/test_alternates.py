"""lockstep.mkdocs.alternates: the workaround for mkdocs-material#6582, on hand-written pages."""

from lockstep.mkdocs.alternates import drop_hreflang_links, language_menu_to_homes

PAGE = """<html><head>
  <link rel="canonical" href="https://example.org/kernels/">
      <link rel="alternate" href="../../kernels/triton/" hreflang="zh">
      <link rel="alternate" href="./" hreflang="en">
  <link rel="alternate" type="application/rss+xml" title="feed" href="feed.xml">
</head><body>
<a href="./" hreflang="en" class="md-select__link">English</a>
<link rel="alternate" href="./" hreflang="en">
</body></html>"""


def test_hreflang_links_leave_the_head_and_nothing_else_does():
    out = drop_hreflang_links(PAGE)
    head, body = out.split("</head>")
    assert 'hreflang="zh"' not in head and 'hreflang="en"' not in head
    assert 'rel="canonical"' in head and "application/rss+xml" in head
    assert body == PAGE.split("</head>")[1]  # the body is not the head's business


def test_the_language_menu_points_at_each_home():
    page = (
        '<a href="../x/" hreflang="zh" class="md-select__link" lang="zh">'
        '<a href="x/" hreflang="en" class="md-select__link" lang="en">'
    )
    out = language_menu_to_homes(page, {"zh": "/av/", "en": "/av/en/"})
    assert out == page.replace("../x/", "/av/").replace('"x/"', '"/av/en/"')
