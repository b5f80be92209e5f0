"""This site's inputs to the generator (lockstep): the values and tables its pages show, the
cards' vocabulary and the numbers its pages state without computing them. Code that pages
show lives in snippets/; what the build does with all of it lives in lockstep/."""
