from movieagent.cli import main

main()
