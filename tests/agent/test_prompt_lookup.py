"""Prompt-lookup drafts: the tokens that follow the last ones written where the prompt's end
holds them."""

from __future__ import annotations

from agent.llm.prompt_lookup import draft


def test_a_draft_is_what_follows_the_latest_match_in_the_prompts_end() -> None:
    prompt = [1, 2, 3, 4, 5, 9, 1, 2, 3, 7, 8, 6]
    assert draft([0, 1, 2, 3], prompt, ngram=3, most=6) == [7, 8, 6]  # the later match
    assert draft([1, 2, 3], prompt, ngram=3, most=2) == [7, 8]  # no more than `most`
    assert draft([2, 3, 5], prompt, ngram=3) == []  # not in the prompt
    assert draft([3], prompt, ngram=3) == []  # too little written to match
    # only the last `recent` tokens are read: the earlier match is out of reach
    assert draft([3, 4, 5], prompt, ngram=3, recent=8) == []
    assert draft([3, 4, 5], prompt, ngram=3, recent=12) == [9, 1, 2, 3, 7, 8]
    assert draft([7, 8, 6], prompt, ngram=3) == []  # nothing follows the match
