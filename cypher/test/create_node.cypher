CREATE (:Intruder {at: 1})
