// Search page enhancement; loaded only on /search.
