from movieagent.cli import app

app()
