"""Figures drawn at build time: one module per figure, each with LABELS, data() and draw(lang).

lockstep finds every module here that defines draw(lang) and draws it in every language;
style.py holds the look they share, palette.py the colours and line styles that tell
series apart (the notebooks use it too).
"""
