"""The JSON API's toolkit, shared by every app's router: the one error body, page-number
pagination, and the cap and re-check of requests that stay open. The API itself is
assembled in council_site.api; who may call it is accounts.api_auth."""
