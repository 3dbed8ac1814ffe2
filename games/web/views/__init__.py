"""The views, one module per group of pages: parse the request, call one service or read
function, render. They may import the rest of games.web and every layer below it.
"""
