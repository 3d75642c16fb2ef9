"""The Streamlit front end: renders the agent's events; decides and queries nothing itself."""
